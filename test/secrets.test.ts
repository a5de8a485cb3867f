import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main } from '../src/cli/main.js'
import type { ReferenceData } from '../src/reference/data.js'
import { faults } from '../src/reference/faults/index.js'
import { startReferenceServer } from '../src/reference/server.js'
import type { Behaviour, RefResponse } from '../src/reference/types.js'
import { captureOutput } from './support/output.js'

const CORE_HEX = 24
/** Any piece of a core this long found in the output is a leak. */
const PIECE = 8

function pieces(core: string): string[] {
  return Array.from({ length: core.length - PIECE + 1 }, (_, i) => core.slice(i, i + PIECE))
}

/** Distinct canaries for every secret input; no piece of the random core may appear, whatever the encoding around it. */
function canary(label: string): { value: string; core: string } {
  const core = randomBytes(CORE_HEX / 2).toString('hex')
  return { value: `${label}-${core}+/=`, core }
}

const canaries = {
  apiKey: canary('api-key'),
  restrictedApiKey: canary('restricted-key'),
  receiptA: canary('receipt-a'),
  receiptB: canary('receipt-b'),
}

/** Where a body excerpt of the evidence is cut: an echoed secret is placed across it. */
const EXCERPT_CUT = 2000

/**
 * A target that gives every secret away in every response: in a header, and in the body both raw and
 * percent-encoded, the first one's core straddling the point where evidence cuts its body excerpt.
 */
const echoSecrets: Behaviour = {
  name: 'echo-secrets (test only)',
  description: 'puts every key and receipt the server knows into each response',
  onResponse(response: RefResponse, _request, data: ReferenceData) {
    const secrets = [data.apiKey, data.restrictedApiKey, ...data.intents.map((i) => i.receipt)]
    const echoed = [...secrets, ...secrets.map(encodeURIComponent)].join(' ')
    const serialized = response.raw ?? (response.body === undefined ? '{}' : JSON.stringify(response.body))
    const padding = 'x'.repeat(EXCERPT_CUT - '{"echo":"'.length - `${data.apiKey.split('-').slice(0, 2).join('-')}-`.length - CORE_HEX / 2)
    const rest = serialized.startsWith('{') && serialized !== '{}' ? `,${serialized.slice(1)}` : '}'
    response.raw = `{"echo":"${padding}${echoed}"${rest}`
    response.headers['x-echo'] = secrets.join(', ')
  },
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('secrets', () => {
  test('no key or receipt appears in any report file, the job summary, stdout or stderr of a run whose target echoes them all', async () => {
    const server = await startReferenceServer({
      apiKey: canaries.apiKey.value,
      restrictedApiKey: canaries.restrictedApiKey.value,
      receipts: [canaries.receiptA.value, canaries.receiptB.value],
      behaviours: [...faults, echoSecrets],
    })
    const dir = mkdtempSync(join(tmpdir(), 'ipts-secrets-'))
    const jobSummary = join(dir, 'job-summary.md')
    writeFileSync(jobSummary, '')
    const { out, err } = captureOutput()
    let code: number
    try {
      const [a, b] = server.data.intents
      code = await main(
        ['--base-url', server.baseUrl, '--report-dir', join(dir, 'report'), '--seed', '5', '--runs', '5', '--trader', server.data.trader,
          '--intent-hash', a!.hash, '--intent-receipt', a!.receipt, '--second-intent-hash', b!.hash, '--second-intent-receipt', b!.receipt],
        { IPTS_API_KEY: canaries.apiKey.value, IPTS_RESTRICTED_API_KEY: canaries.restrictedApiKey.value, GITHUB_STEP_SUMMARY: jobSummary },
      )
    } finally {
      vi.restoreAllMocks()
      await server.close()
    }
    expect(code, err.join('')).toBe(1)
    const written = [...filesUnder(dir).map((path) => ({ where: path, text: readFileSync(path, 'latin1') })), { where: 'stdout', text: out.join('') }, { where: 'stderr', text: err.join('') }]
    expect(written.length, 'report files, job summary, stdout, stderr').toBeGreaterThanOrEqual(7)
    for (const [name, { value, core }] of Object.entries(canaries)) {
      for (const { where, text } of written) {
        const leaked = pieces(core).filter((piece) => text.includes(piece))
        expect(leaked, `${name} (${value}) leaked into ${where}`).toEqual([])
      }
    }
    const json = readFileSync(join(dir, 'report', 'report.json'), 'utf8')
    for (const placeholder of ['$IPTS_API_KEY', '$IPTS_RESTRICTED_API_KEY', '$IPTS_INTENT_RECEIPT', '$IPTS_SECOND_INTENT_RECEIPT']) {
      expect(json, `the echoed secrets reached the evidence as ${placeholder}`).toContain(placeholder)
    }
  })
})
