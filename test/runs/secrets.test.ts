import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { hexOf, type ReferenceData } from '../../src/reference/data.js'
import { bodyOf } from '../../src/reference/response-edits.js'
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js'
import type { Behaviour, RefResponse } from '../../src/reference/types.js'
import { captureOutput } from '../support/output.js'
import { piecesOf, readerViews } from '../support/secret-encoders.js'

/** Any piece of any form of a canary this long found in the output is a leak. */
const PIECE = 8
/**
 * Characters that URL and JSON encoders treat differently, and a multi-byte one (within Latin-1, so it can travel in a
 * header).
 */
const SPECIALS = [' ', '~', '!', "'", '(', ')', '/', '+', '=', 'é']

/**
 * A canary: every special character between pieces of hex derived from its label, so that every 8-character piece
 * of any of its forms holds some of that hex, which nothing else a run writes can hold by chance.
 */
function canary(label: string): string {
  return [hexOf(`${label}/0`, 4), ...SPECIALS.map((c, i) => `${c}${hexOf(`${label}/${i + 1}`, 4)}`)].join('')
}

const canaries = {
  apiKey: canary('api-key'),
  restrictedApiKey: canary('restricted-key'),
  receiptA: canary('receipt-a'),
  receiptB: canary('receipt-b'),
}

/** The forms in which the echo server gives a secret away. */
const formsOf = (secret: string) => {
  const formPlus = new URLSearchParams({ s: secret }).toString().slice(2)
  return {
    raw: secret,
    'form-encoded, + for space': formPlus,
    'form-encoded, %20 for space': formPlus.replace(/\+/g, '%20'),
    'percent-encoded, upper case': encodeURIComponent(secret),
    'percent-encoded, lower case': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) =>
      escape.toLowerCase(),
    ),
    'JSON-escaped with \\/': JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
  }
}

function pieces(text: string): string[] {
  return Array.from({ length: text.length - PIECE + 1 }, (_, i) => text.slice(i, i + PIECE))
}

/** Where evidence cuts a body excerpt, a schema violation's value, and the value a success-body failure quotes. */
const BODY_CUT = 2000
const VALUE_CUT = 500
const QUOTED_VALUE_CUT = 80
/** How much of a secret lies before each cut. */
const BEFORE_CUT = 12

/**
 * A target that gives the secrets away in every response, in every form above: in headers (raw, form-encoded in a
 * Link URL, lower-case percent-encoded in Content-Location, form-encoded in a header's name), in the body (every
 * form of one of them, all of them JSON-escaped with \/ as member names, one straddling the cut of the body excerpt),
 * and in
 * values that break the schema so that checks quote them: an error body's requestId straddling the cut of a
 * violation's value, an intent's createdAt straddling the cut of a quoted value, and names of members of its failure.
 */
function echoSecrets(): Behaviour {
  let turn = 0
  return {
    name: 'echo-secrets (test only)',
    description: 'puts every key and receipt the server knows into each response, in every form',
    onResponse(response: RefResponse, _request, data: ReferenceData) {
      const secrets = [data.apiKey, data.restrictedApiKey, ...data.intents.map((i) => i.receipt)]
      const next = secrets[turn++ % secrets.length]!
      const body = bodyOf(response)
      if (body && response.status >= 400) body.requestId = `${'x'.repeat(VALUE_CUT - 1 - BEFORE_CUT)}${next}`
      if (body && response.status === 200 && typeof body.orderHash === 'string') {
        body.createdAt = `${'1'.repeat(QUOTED_VALUE_CUT - 1 - BEFORE_CUT)}${next}`
        const failure = body.failure as Record<string, unknown> | undefined
        if (failure) for (const secret of secrets) failure[secret] = true
      }
      const forms = secrets.map(formsOf)
      const echoed = Object.values(forms[turn % forms.length]!).join(' ')
      const named = forms.map((f) => `"${f['JSON-escaped with \\/']}":1`).join(',')
      const serialized = response.raw ?? (response.body === undefined ? '{}' : JSON.stringify(response.body))
      const rest = serialized.startsWith('{') && serialized !== '{}' ? `,${serialized.slice(1)}` : '}'
      const head = `{"echo":"${echoed}",${named},"cut":"`
      response.raw = `${head}${'x'.repeat(BODY_CUT - head.length - BEFORE_CUT)}${next}"${rest}`
      response.headers['x-echo'] = secrets.join(', ')
      response.headers.link = forms
        .map((f) => `</v1/intents/x?receipt=${f['form-encoded, + for space']}>; rel="related"`)
        .join(', ')
      response.headers['content-location'] =
        `/v1/intents/x?receipt=${forms[turn % forms.length]!['percent-encoded, lower case']}`
      response.headers[`x-echo-${forms[turn % forms.length]!['form-encoded, + for space']}`] = '1'
    },
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Markup with its character references resolved, so that a secret is found however HTML or XML escaped it. */
function unescapeMarkup(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return text.replace(
    /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi,
    (_, dec: string, hex: string, name: string) =>
      dec
        ? String.fromCodePoint(Number(dec))
        : hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : named[name.toLowerCase()]!,
  )
}

afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * The CLI against the server with its trader and both its intents, the reports under dir/report; the server closed
 * after.
 */
async function runWithIntents(
  server: ReferenceServer,
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  const { out, err, restore } = captureOutput()
  let code: number
  try {
    const [a, b] = server.data.intents
    code = await main(
      [
        '--base-url',
        server.baseUrl,
        '--report-dir',
        join(dir, 'report'),
        '--seed',
        '5',
        '--runs',
        '5',
        '--trader',
        server.data.trader,
        '--intent-hash',
        a!.hash,
        '--intent-receipt',
        a!.receipt,
        '--second-intent-hash',
        b!.hash,
        '--second-intent-receipt',
        b!.receipt,
      ],
      env,
    )
  } finally {
    restore()
    await server.close()
  }
  return { code, out: out.join(''), err: err.join('') }
}

describe('secrets', () => {
  test('no piece of a key or receipt, in any form, appears in any report file, the job summary, stdout or stderr of a run whose target echoes them all', async () => {
    const server = await startReferenceServer({
      apiKey: canaries.apiKey,
      restrictedApiKey: canaries.restrictedApiKey,
      receipts: [canaries.receiptA, canaries.receiptB],
      behaviours: [echoSecrets()],
    })
    const dir = mkdtempSync(join(tmpdir(), 'ipts-secrets-'))
    const jobSummary = join(dir, 'job-summary.md')
    writeFileSync(jobSummary, '')
    const { code, out, err } = await runWithIntents(server, dir, {
      IPTS_API_KEY: canaries.apiKey,
      IPTS_RESTRICTED_API_KEY: canaries.restrictedApiKey,
      GITHUB_STEP_SUMMARY: jobSummary,
    })
    expect(code, err).toBe(1)
    const files = filesUnder(dir)
    expect(files.length, 'the report files, the HAR and the job summary').toBeGreaterThanOrEqual(6)
    const written = [
      ...files.flatMap((path) => {
        const text = readFileSync(path, 'utf8')
        const resolved = unescapeMarkup(text)
        return [
          { where: path, text },
          ...(resolved === text ? [] : [{ where: `${path} (character references resolved)`, text: resolved }]),
        ]
      }),
      { where: 'stdout', text: out },
      { where: 'stderr', text: err },
    ]
    // Each piece with the forms it is a piece of, so that each output is read once, not once for each piece.
    const formsWithPiece = new Map<string, string[]>()
    for (const [name, value] of Object.entries(canaries))
      for (const [form, text] of Object.entries(formsOf(value)))
        for (const piece of new Set(pieces(text)))
          formsWithPiece.set(piece, [...(formsWithPiece.get(piece) ?? []), `${name} ${form}`])
    const leaks: string[] = []
    for (const { where, text: output } of written) {
      const found = new Map<string, Set<string>>()
      for (let at = 0; at + PIECE <= output.length; at++) {
        const piece = output.slice(at, at + PIECE)
        for (const form of formsWithPiece.get(piece) ?? []) found.set(form, (found.get(form) ?? new Set()).add(piece))
      }
      for (const [form, inForm] of found)
        leaks.push(
          `${form} in ${where}: ${[...inForm]
            .slice(0, 3)
            .map((p) => JSON.stringify(p))
            .join(', ')}`,
        )
    }
    expect(leaks, 'pieces of secrets found in the output').toEqual([])
    const json = readFileSync(join(dir, 'report', 'report.json'), 'utf8')
    for (const placeholder of [
      '$IPTS_API_KEY',
      '$IPTS_RESTRICTED_API_KEY',
      '$IPTS_INTENT_RECEIPT',
      '$IPTS_SECOND_INTENT_RECEIPT',
    ]) {
      expect(json, `the echoed secrets reached the evidence as ${placeholder}`).toContain(placeholder)
    }
  })

  test('the three leaks of issue 19 are gone: a WHATWG-serialised Link, .NET-escaped JSON, a 5 MiB body with the receipt across the capture cap', async () => {
    const key = 'K~!(x) é+/='
    const receipt = 'R~!(x)é+/=zz'
    /**
     * The receipt as WHATWG URL serialises a query (new URL(), browsers), and JSON as .NET writes it, every
     * non-alphanumeric as upper-case \uXXXX.
     */
    const whatwg = (text: string) => Object.assign(new URL('http://h/x'), { search: `r=${text}` }).search.slice(3)
    const dotnet = (text: string) =>
      text.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)
    expect(whatwg(receipt)).toBe('R~!(x)%C3%A9+/=zz')
    const CAP_KEPT = 64 * 1024
    let bigBodies = 0
    const echo: Behaviour = {
      name: 'echo-unlisted-encodings (test only)',
      description: 'repeats the key and the receipt in encodings no list had',
      onResponse(response: RefResponse, request) {
        response.headers.link = [receipt, key]
          .map((s) => `</v1/intents/x?receipt=${whatwg(s)}>; rel="related"`)
          .join(', ')
        // A trader's reads, which the preflight does not probe: its probes' answers are in no report.
        if (response.status === 200 && request.path.includes('/traders/') && bigBodies < 3) {
          bigBodies++
          response.raw = `${'a'.repeat(CAP_KEPT - 4)}${receipt}${'a'.repeat(5 * 1024 * 1024)}`
          return
        }
        const serialized = response.raw ?? (response.body === undefined ? '{}' : JSON.stringify(response.body))
        const rest = serialized.startsWith('{') && serialized !== '{}' ? `,${serialized.slice(1)}` : '}'
        response.raw = `{"echo":"${dotnet(receipt)}","${dotnet(key)}":"${dotnet(key)}"${rest}`
      },
    }
    const server = await startReferenceServer({
      apiKey: key,
      restrictedApiKey: canaries.restrictedApiKey,
      receipts: [receipt, canaries.receiptB],
      behaviours: [echo],
    })
    const dir = mkdtempSync(join(tmpdir(), 'ipts-secrets-19-'))
    const { code, out, err } = await runWithIntents(server, dir, {
      IPTS_API_KEY: key,
      IPTS_RESTRICTED_API_KEY: canaries.restrictedApiKey,
    })
    expect(code, err).toBe(1)
    expect(bigBodies, 'responses of 5 MiB').toBe(3)
    const written = [
      ...filesUnder(dir).map((path) => ({ where: path, text: readFileSync(path, 'utf8') })),
      { where: 'stdout', text: out },
      { where: 'stderr', text: err },
    ]
    expect(written.map((w) => w.where).join('\n')).toMatch(/exchanges\.har/)
    const leaks: string[] = []
    const secretPieces = [...piecesOf(key), ...piecesOf(receipt)]
    for (const { where, text } of written) {
      for (const form of ['R~!(x)%C3%A9+/=zz', dotnet(receipt), dotnet(key), 'aaaaR~!('])
        if (text.includes(form) || text.includes(JSON.stringify(form).slice(1, -1))) leaks.push(`${form} in ${where}`)
      for (const view of readerViews(text, 3, 40)) {
        const piece = secretPieces.find((p) => view.includes(p))
        if (piece) {
          leaks.push(`piece ${JSON.stringify(piece)} in a view of ${where}`)
          break
        }
      }
    }
    expect(leaks, 'the key or receipt in the output').toEqual([])
    const json = readFileSync(join(dir, 'report', 'report.json'), 'utf8')
    expect(json, 'the disclosed receipt is a finding').toMatch(
      /"id": "every-response\/receipt-not-disclosed",[^}]*"status": "failed"/,
    )
    const har = readFileSync(join(dir, 'report', 'exchanges.har'), 'utf8')
    expect(har, 'the Link header with its receipt replaced').toContain('receipt=$IPTS_INTENT_RECEIPT>')
    expect(har, 'the cut body, without the beginning of the receipt').toContain(
      `${'a'.repeat(1000)}","comment":"body truncated`,
    )
  })
})
