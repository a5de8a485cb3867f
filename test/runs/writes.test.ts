import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request as undiciRequest } from 'undici'
import { describe, expect, onTestFinished, test, vi } from 'vitest'
import type { CheckId } from '../../src/contract/catalogue-ids.js'
import { checksByConcern } from '../../src/checks/index.js'
import { parseCli } from '../../src/cli/options.js'
import { main } from '../../src/cli/main.js'
import { parseProxyArgs, proxy } from '../../src/cli/proxy.js'
import { faultByName } from '../../src/reference/faults/index.js'
import { startReferenceServer } from '../../src/reference/server.js'
import { signedBody } from '../../src/reference/signer.js'
import { packageRoot, specPath } from '../../src/core/package-root.js'
import type { Report } from '../../src/core/report.js'
import type { Har } from '../../src/har/types.js'
import { WRITES_NOT_ASSESSABLE } from '../../src/profile/profile.js'
import type { RefRequest } from '../../src/reference/types.js'
import { isTicketRequest } from '../../src/reference/realtime.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import { writeReports } from '../../src/index.js'
import type { WritePlan } from '../../src/engine/write-plan.js'
import { renderHtml } from '../../reporters/html.js'
import { renderMarkdown } from '../../reporters/markdown.js'
import { harValidator } from '../support/har-schema.js'
import { reportValidator } from '../support/report-schema.js'
import { captureOutput } from '../support/output.js'
import { failureSummary, idsWithStatus, outcomeWithBehaviours, runAgainstReference } from '../support/run.js'
import { piecesOf, readerViews } from '../support/secret-encoders.js'

const writeCheckIds = checksByConcern.writes!.map((check) => check.id).sort()

/** Every request the embedded reference answered, as it saw it (method, path, Idempotency-Key, body). */
function recorder(): { requests: RefRequest[]; record: (request: RefRequest) => void } {
  const requests: RefRequest[] = []
  return { requests, record: (request) => requests.push({ ...request, headers: { ...request.headers } }) }
}

/** The writes among them: not the GETs, nor a realtime ticket's POST (a read, sent whenever realtime is stated). */
const writesIn = (requests: readonly RefRequest[]) =>
  requests.filter((request) => request.method !== 'GET' && !isTicketRequest(request))

describe('a run without --allow-writes', () => {
  test('sends no write, and reports every write check not assessable, naming the profile key and the flag', async () => {
    const { requests, record } = recorder()
    // The reference's own profile states writes: the profile alone does not let a run write.
    const report = await runAgainstReference({ record })
    expect(requests.length, 'the recording saw the run').toBeGreaterThan(100)
    expect(
      writesIn(requests).map((r) => `${r.method} ${r.path}`),
      'writes the recording server received',
    ).toEqual([])
    for (const id of writeCheckIds)
      expect(
        report.checks.find((c) => c.id === id),
        id,
      ).toMatchObject({ status: 'skipped', reason: WRITES_NOT_ASSESSABLE })
    expect(WRITES_NOT_ASSESSABLE).toMatch(/states writes \(--profile\) and --allow-writes$/)
    expect(
      report.checks.filter((c) => c.lifecycle),
      'no lifecycle was walked',
    ).toEqual([])
    expect(renderHtml(report), 'report.html draws no lifecycle').not.toContain('<section id="lifecycle">')
    expect(renderMarkdown(report), 'nor does report.md list one').not.toContain('### Lifecycle')
  })

  test('nor with --allow-writes and a profile that states no writes', async () => {
    const { requests, record } = recorder()
    const report = await runAgainstReference({ record }, { allowWrites: true }, { profile: null })
    expect(writesIn(requests)).toEqual([])
    expect(idsWithStatus(report, 'skipped')).toEqual(expect.arrayContaining(writeCheckIds))
  })

  test('--allow-writes comes from the command line only: IPTS_ALLOW_WRITES and a config file do not give it', () => {
    expect(parseCli([], { IPTS_ALLOW_WRITES: '1' }).run.settings.allowWrites).toBe(false)
    expect(parseCli(['--allow-writes'], {}).run.settings.allowWrites).toBe(true)
    const config = join(mkdtempSync(join(tmpdir(), 'ipts-writes-config-')), 'ipts.yaml')
    writeFileSync(config, 'allow-writes: true\n')
    expect(() => parseCli(['--config', config], {})).toThrow(
      /allow-writes in .* is not read: writes are sent only with --allow-writes on the command line/,
    )
  })
})

describe('a run with --allow-writes against the embedded reference and its profile', () => {
  let plan: WritePlan | undefined
  const { requests, record } = recorder()
  const reportDir = mkdtempSync(join(tmpdir(), 'ipts-writes-report-'))
  const running = runAgainstReference(
    { record },
    { allowWrites: true },
    { onWritePlan: (given) => (plan = given), harPath: join(reportDir, 'exchanges.har') },
  )

  test('passes every check, every write check among them, each listing the writes it sent', async () => {
    const report = await running
    expect(idsWithStatus(report, 'failed'), failureSummary(report)).toEqual([])
    for (const id of writeCheckIds) {
      const check = report.checks.find((c) => c.id === id)!
      expect(check.status, `${id}: ${check.reason}`).toBe('passed')
      expect(check.writes?.length, `${id} lists its writes`).toBeGreaterThan(0)
    }
    expect(report.checks.find((c) => c.id === 'every-response/accepted-write-carries-key')?.status).toBe('passed')
  })

  test('said its plan before the first write: the operations, and at most as many submissions as it sent', async () => {
    const report = await running
    const sent = writesIn(requests).length
    expect(plan?.operations).toEqual([
      'submitIntent: POST /v1/intents',
      'cancelIntent: POST /v1/cancellations and POST /v1/intents/{id}/cancellation',
    ])
    expect(plan!.submissions, 'the plan bounds what was sent').toBeGreaterThanOrEqual(sent)
    const listed = report.checks.flatMap((c) => c.writes ?? [])
    expect(listed.length, 'the report lists every write the server received').toBe(sent)
  })

  test('keeps each receipt a write returned out of every file it writes, as $IPTS_WRITE_RECEIPT_n', async () => {
    const report = await running
    await writeReports(report, reportDir)
    const receipts = report.checks
      .flatMap((c) => c.writes ?? [])
      .map((w) => w.receipt)
      .filter(Boolean)
    expect(receipts.length).toBeGreaterThan(0)
    for (const placeholder of receipts) expect(placeholder).toMatch(/^\$IPTS_WRITE_RECEIPT_\d+$/)
    expect(recordedReceipts(report), 'receipts the reference issued, unredacted in the report').toEqual([])
    const files = readdirSync(reportDir).map((name) => readFileSync(join(reportDir, name), 'utf8'))
    expect(
      files.some((text) => text.includes('"postData"')),
      'the HAR holds the signed bodies sent',
    ).toBe(true)
    const html = readFileSync(join(reportDir, 'report.html'), 'utf8')
    expect(html.match(/<section id="writes"><h2>Writes sent \((\d+)\)/)?.[1], 'report.html lists every write').toBe(
      String(writesIn(requests).length),
    )
    const validate = harValidator()
    expect(
      validate(JSON.parse(readFileSync(join(reportDir, 'exchanges.har'), 'utf8'))),
      JSON.stringify(validate.errors?.slice(0, 3)),
    ).toBe(true)
    for (const text of files) expect(text).not.toMatch(/rcpt_[0-9a-f]{40}/)
    // The chained cancellation sent a receipt in a header: the HAR shows it as its placeholder.
    expect(readFileSync(join(reportDir, 'exchanges.har'), 'utf8')).toMatch(
      /"name":\s*"x-receipt",\s*"value":\s*"\$IPTS_WRITE_RECEIPT_\d+"/,
    )
  })

  test('holds the lifecycle the chained cancellation walked, its steps in order, drawn in report.html and listed in report.md, the receipt only as its placeholder', async () => {
    const report = await running
    const check = report.checks.find((c) => c.id === 'writes/cancellation-ends-lifecycle')!
    const steps = check.lifecycle!
    const labels = steps.map((step) => step.label)
    expect(labels.slice(0, 3)).toEqual([
      'submitIntent intake',
      'status read with its receipt',
      'cancelIntent with its receipt',
    ])
    expect(labels.length, 'a status read after the cancellation at least').toBeGreaterThanOrEqual(4)
    expect(new Set(labels.slice(3))).toEqual(new Set(['status after the cancellation']))
    expect(steps.map((step) => step.kind)).toEqual(steps.map(() => 'rest'))
    expect(steps[0]!.request).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/v1\/intents$/)
    expect(steps[0]!.outcome).toBe('202')
    const placeholder = steps[0]!.receipt!
    expect(placeholder).toMatch(/^\$IPTS_WRITE_RECEIPT_\d+$/)
    expect(steps.map((step) => step.receipt)).toEqual(steps.map(() => placeholder))
    expect(steps[1]!.request).toMatch(
      new RegExp(`^GET http://127\\.0\\.0\\.1:\\d+/v1/intents/0x[0-9a-f]+\\?receipt=\\${placeholder}$`),
    )
    expect(steps[1]!.outcome).toMatch(/^200, state "\w+"$/)
    expect(steps[2]!.request).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/v1\/intents\/0x[0-9a-f]+\/cancellation$/)
    expect(steps.at(-1)!.outcome).toMatch(/^200, state "(settled|failed|cancelled)"$/)
    const times = steps.map((step) => Date.parse(step.at))
    expect(times, 'in the order they happened').toEqual([...times].sort((a, b) => a - b))
    const channelled = report.checks.find((c) => c.id === 'realtime/lifecycle-ends-on-channel')!.lifecycle!
    expect(channelled.slice(0, 4).map((step) => [step.kind, step.label])).toEqual([
      ['rest', 'submitIntent intake'],
      ['rest', 'status read with its receipt'],
      ['realtime', 'channel opened with its receipt'],
      ['rest', 'cancelIntent with its receipt'],
    ])
    expect(channelled[2]!.request).toMatch(/^intent:0x[0-9a-f]+$/)
    expect([channelled.at(-1)!.kind, channelled.at(-1)!.label, channelled.at(-1)!.outcome]).toEqual([
      'realtime',
      'terminal event',
      'received',
    ])
    expect(
      new Set(channelled.map((step) => step.receipt).filter(Boolean)).size,
      'one receipt, as its placeholder',
    ).toBe(1)
    const validReport = reportValidator()
    expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true)

    const dir = mkdtempSync(join(tmpdir(), 'ipts-lifecycle-report-'))
    await writeReports(report, dir)
    const html = readFileSync(join(dir, 'report.html'), 'utf8')
    const section = html.indexOf('<section id="lifecycle">')
    const ofCheck = html.indexOf('<h3><code>writes/cancellation-ends-lifecycle</code>', section)
    const drawn = html.slice(ofCheck, html.indexOf('</ol>', ofCheck))
    expect(drawn, 'report.html draws the lifecycle').toContain('<ol class="lifecycle"')
    const items = [...drawn.matchAll(/<li class="step rest">.*?<strong>([^<]+)<\/strong>/g)].map((m) => m[1])
    expect(items, 'each step, in order').toEqual(labels)
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8')
    const listed = markdown.slice(markdown.indexOf('### Lifecycle walked by `writes/cancellation-ends-lifecycle`'))
    expect(
      listed
        .split('\n')
        .filter((line) => /^\d+\. /.test(line))
        .slice(0, steps.length)
        .map((line) => line.match(/\*\*(.+?)\*\*/)?.[1]),
      'report.md lists each step in order',
    ).toEqual(labels)

    // The receipt the lifecycle carried, as the reference received it in the cancellation's X-Receipt header.
    const cancellation = requests.find((r) => r.path === new URL(steps[2]!.request.split(' ')[1]!).pathname)!
    const receipt = cancellation.headers['x-receipt']!
    expect(receipt).toMatch(/^rcpt_/)
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8')
      expect(text.includes(receipt), `the receipt in ${name}`).toBe(false)
    }
    for (const text of [JSON.stringify(steps), drawn, listed])
      for (const view of readerViews(text, 3, 40))
        expect(
          piecesOf(receipt).find((piece) => view.includes(piece)),
          'a piece of the receipt, in any encoding',
        ).toBeUndefined()
  })

  test('never sends a body again under another key, nor a key with another body but to see that refused (the recorded exchanges prove it)', async () => {
    const report = await running
    // The one breach on purpose (as writes/missing-key-refused sends no key): another body under a used key.
    const probed = new Set(
      report.checks
        .find((c) => c.id === 'writes/key-reuse-with-another-body-refused')!
        .writes!.map((write) => write.idempotencyKey),
    )
    expect(probed.size, 'one used key per operation').toBe(2)
    const keysByBody = new Map<string, Set<string | undefined>>()
    const bodiesByKey = new Map<string, { key: string; bodies: Set<string | undefined> }>()
    for (const { body, headers, path } of writesIn(requests)) {
      const key = headers['idempotency-key']
      keysByBody.set(`${path} ${body}`, (keysByBody.get(`${path} ${body}`) ?? new Set()).add(key))
      if (key !== undefined) {
        const sent = bodiesByKey.get(`${path} ${key}`) ?? { key, bodies: new Set() }
        bodiesByKey.set(`${path} ${key}`, { key, bodies: sent.bodies.add(body) })
      }
    }
    for (const [body, keys] of keysByBody) expect(keys.size, `${body} was sent under ${keys.size} keys`).toBe(1)
    for (const [sent, { key, bodies }] of bodiesByKey)
      expect(bodies.size, `${sent} was sent with ${bodies.size} bodies`).toBe(probed.has(key) ? 2 : 1)
    expect(
      [...keysByBody.values()].some((keys) => keys.size === 1),
      'replays were sent',
    ).toBe(true)
  })
})

describe('a lifecycle that does not end', () => {
  test('keeps its steps in the failed outcome: the statuses after the cancellation show the state it was left in', async () => {
    const outcome = await outcomeWithBehaviours(
      ['writes/cancellation-ends-lifecycle'],
      [faultByName('cancellation-leaves-lifecycle-open')!],
      { allowWrites: true },
    )
    expect(outcome.status).toBe('failed')
    const steps = outcome.lifecycle!
    expect(steps.map((step) => step.label)).toEqual([
      'submitIntent intake',
      'status read with its receipt',
      'cancelIntent with its receipt',
      ...Array.from({ length: 5 }, () => 'status after the cancellation'),
    ])
    expect(steps.slice(3).map((step) => step.outcome)).toEqual(steps.slice(3).map(() => '200, state "pending"'))
  })
})

/** Receipts of the reference's written intents that appear raw in the report (none should). */
function recordedReceipts(report: Report): string[] {
  return [...JSON.stringify(report).matchAll(/rcpt_[0-9a-f]{40}/g)].map((m) => m[0])
}

describe('--max-writes', () => {
  test('bounds the submissions: write checks that would pass it are skipped with that reason, in catalogue order', async () => {
    const { requests, record } = recorder()
    let plan: WritePlan | undefined
    const report = await runAgainstReference(
      { record },
      { allowWrites: true, maxWrites: 5 },
      { only: writeCheckIds, onWritePlan: (given) => (plan = given) },
    )
    expect(plan?.checks, 'the plan takes the checks that fit, in catalogue order').toEqual([
      { id: 'writes/missing-key-refused', submissions: 2 },
      { id: 'writes/unsafe-key-refused', submissions: 2 },
      { id: 'writes/intake-returns-identifier-and-receipt', submissions: 1 },
    ])
    expect(writesIn(requests).length, 'as planned').toBe(5)
    expect(
      report.checks.find((c) => c.id === 'writes/missing-key-refused')?.status,
      'the first check fits (2 submissions)',
    ).toBe('passed')
    const refused = report.checks.filter((c) => c.reason?.includes('--max-writes 5'))
    expect(refused.length, 'checks skipped for the bound').toBeGreaterThan(0)
    for (const check of refused)
      expect(check.reason).toMatch(
        /^skipped: it sends up to \d+ submissions, more than the \d+ left of --max-writes 5$/,
      )
  })
})

describe('the CLI', () => {
  test('prints the plan of writes before the run, and reference sign prints a fresh signed body each call', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'ipts-writes-cli-'))
    const { out, restore } = captureOutput()
    let code: number
    try {
      code = await main(
        ['--allow-writes', '--check', 'writes/missing-key-refused', '--report-dir', reportDir, '--seed', '1'],
        {},
      )
      await main(['reference', 'sign', 'intent'], {})
      await main(['reference', 'sign', 'intent'], {})
    } finally {
      restore()
    }
    const text = out.join('')
    expect(code, text).toBe(0)
    expect(text).toMatch(
      /Writes \(--allow-writes\): 1 checks send at most 2 submissions, each of which may create an order, to:\n {2}submitIntent: POST \/v1\/intents\n {2}cancelIntent: POST \/v1\/cancellations and POST \/v1\/intents\/\{id\}\/cancellation/,
    )
    const bodies = text.split('\n').filter((line) => line.startsWith('{"kind":"intent"'))
    expect(bodies).toHaveLength(2)
    expect(bodies[0]).not.toBe(bodies[1])
  })

  test('a signing command that fails skips the check with its exit code, never its output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-writes-signer-'))
    const profile = join(dir, 'profile.yaml')
    writeFileSync(
      profile,
      [
        'profile:',
        '  writes:',
        '    operations:',
        '      submitIntent:',
        '        kind: intent',
        '        method: POST',
        '        path: /v1/intents',
        '        statusIdentifier: /data/hash',
        // The tool's stderr says SECRET-SIGNING-KEY (written base64 here, so that only its output holds the words).
        `        bodies: { command: [${JSON.stringify(process.execPath)}, -e, "process.stderr.write(Buffer.from('U0VDUkVULVNJR05JTkctS0VZ', 'base64')); process.exit(3)"] }`,
      ].join('\n'),
    )
    const { requests, record } = recorder()
    const report = await runAgainstReference(
      { record },
      { allowWrites: true },
      {
        profile: { file: profile },
        only: ['writes/missing-key-refused', 'writes/intake-returns-identifier-and-receipt'],
      },
    )
    const check = report.checks.find((c) => c.id === 'writes/missing-key-refused')!
    expect(check).toMatchObject({
      status: 'skipped',
      reason:
        'no signed body: writes.operations.submitIntent.bodies.command exited with code 3 (its output is not shown)',
    })
    // The profile states no receipt: the intake check names the key that would give it an operation.
    expect(report.checks.find((c) => c.id === 'writes/intake-returns-identifier-and-receipt')?.reason).toBe(
      'no write operation of the profile states an action or intent intake with its receipt (writes.operations.*.receipt)',
    )
    expect(JSON.stringify(report)).not.toContain('SECRET-SIGNING-KEY')
    expect(writesIn(requests)).toEqual([])
  })

  test('pre-signed body files, relative to the profile, are each sent once; a check that needs more than are left is skipped naming the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-writes-files-'))
    writeFileSync(join(dir, 'intent-1.json'), `${signedBody('intent')}\n`)
    writeFileSync(join(dir, 'intent-2.json'), signedBody('intent'))
    const profileWith = (files: string[]) => {
      const path = join(dir, `profile-${files.length}.yaml`)
      writeFileSync(
        path,
        [
          'profile:',
          '  writes:',
          '    operations:',
          '      submitIntent:',
          '        kind: intent',
          '        method: POST',
          '        path: /v1/intents',
          '        statusIdentifier: /data/hash',
          `        bodies: { files: [${files.join(', ')}] }`,
        ].join('\n'),
      )
      return path
    }
    const only: CheckId[] = ['writes/key-length-within-bounds-accepted']
    const { requests, record } = recorder()
    const both = await runAgainstReference(
      { record },
      { allowWrites: true },
      { profile: { file: profileWith(['intent-1.json', 'intent-2.json']) }, only },
    )
    expect(both.checks.find((c) => c.id === only[0])?.status, failureSummary(both)).toBe('passed')
    expect(new Set(writesIn(requests).map((r) => r.body)).size, 'two bodies, each sent once').toBe(2)
    const one = await runAgainstReference(
      {},
      { allowWrites: true },
      { profile: { file: profileWith(['intent-1.json']) }, only },
    )
    expect(one.checks.find((c) => c.id === only[0])?.reason).toBe(
      'no signed body: writes.operations.submitIntent.bodies.files: all 1 pre-signed bodies are used; a body is sent once per run (list more files)',
    )
  })

  test('a keyPattern the profile states is what safe means: a key holding a character it refuses must be refused, and a pattern that cannot be used is a profile error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-writes-pattern-'))
    const profileWith = (keyPattern: string) => {
      const path = join(dir, `profile-${keyPattern.length}.yaml`)
      const command = `[${JSON.stringify(process.execPath)}, ${JSON.stringify(join(packageRoot, 'bin', 'ipts-conformance.js'))}, reference, sign, intent]`
      writeFileSync(
        path,
        [
          'profile:',
          '  writes:',
          `    keyPattern: '${keyPattern}'`,
          '    operations:',
          '      submitIntent:',
          '        kind: intent',
          '        method: POST',
          '        path: /v1/intents',
          '        statusIdentifier: /data/hash',
          `        bodies: { command: ${command} }`,
        ].join('\n'),
      )
      return path
    }
    const only: CheckId[] = ['writes/unsafe-key-refused', 'writes/key-length-within-bounds-accepted']
    // The reference takes letters, digits and . _ ~ -; a deployment that states letters, digits and - only must refuse
    // '.'.
    const stricter = await runAgainstReference(
      {},
      { allowWrites: true },
      { profile: { file: profileWith('^[A-Za-z0-9-]+$') }, only },
    )
    expect(stricter.checks.find((c) => c.id === 'writes/unsafe-key-refused')?.reason).toMatch(
      /^submitIntent: a submission with an Idempotency-Key holding "\.", which the profile's writes\.keyPattern refuses was accepted \(202\)/,
    )
    expect(stricter.checks.find((c) => c.id === 'every-response/accepted-write-carries-key')?.reason).toMatch(
      /sent with an Idempotency-Key that the profile's writes\.keyPattern refuses was accepted/,
    )
    const same = await runAgainstReference(
      {},
      { allowWrites: true },
      { profile: { file: profileWith('^[A-Za-z0-9._~-]+$') }, only },
    )
    expect(idsWithStatus(same, 'failed'), failureSummary(same)).toEqual([])
    expect(same.checks.find((c) => c.id === 'writes/unsafe-key-refused')?.writes?.[0]?.idempotencyKey).toContain(':')
    expect(() => parseCli(['--profile', profileWith('^[a-z')], {})).toThrow(
      /: profile\.writes\.keyPattern is not a regular expression: /,
    )
    expect(() => parseCli(['--profile', profileWith('^[a-z]{8,64}$')], {})).toThrow(
      ': profile.writes.keyPattern refuses keys of 8 and 128 letters and digits, which the contract allows',
    )
  })

  test("profile init's template states the writes section, commented out", async () => {
    const { profileTemplate } = await import('../../src/cli/profile-template.js')
    const template = profileTemplate()
    expect(template).toMatch(/# writes: the relayed write operations/)
    expect(template).toMatch(/# {5}submitIntent:\n {2}# {7}kind: intent/)
    expect(readFileSync(specPath(REFERENCE_PROFILE_FILE), 'utf8')).toMatch(/reference, sign, intent/)
  })
})

describe('recorded write traffic (check-har, the proxy)', () => {
  const profile = specPath(REFERENCE_PROFILE_FILE)

  async function checkHar(args: string[]): Promise<{ code: number; report: Report; files: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'ipts-writes-check-har-'))
    const { restore } = captureOutput()
    let code: number
    try {
      code = await main(['check-har', ...args, '--report-dir', dir], {})
    } finally {
      restore()
    }
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'))
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, files }
  }

  test('check-har fails a write accepted without Idempotency-Key, as the run did, under a profile that states the writes; not assessable without', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-writes-har-')), 'exchanges.har')
    const run = await runAgainstReference(
      { faults: ['write-without-key-accepted'] },
      { allowWrites: true },
      { harPath },
    )
    expect(idsWithStatus(run, 'failed')).toContain('every-response/accepted-write-carries-key')
    const held = await checkHar([harPath, '--profile', profile])
    expect(
      idsWithStatus(held.report, 'failed'),
      held.report.checks
        .filter((c) => c.status === 'failed')
        .map((c) => `${c.id}: ${c.reason}`)
        .join('\n'),
    ).toEqual(['every-response/accepted-write-carries-key'])
    expect(held.report.checks.find((c) => c.id === 'every-response/accepted-write-carries-key')?.reason).toMatch(
      /a write of submitIntent sent without Idempotency-Key was accepted \(202\)/,
    )
    const without = await checkHar([harPath])
    expect(without.report.checks.find((c) => c.id === 'every-response/accepted-write-carries-key')).toMatchObject({
      status: 'skipped',
      reason: 'not assessable without a deployment profile that states writes (--profile)',
    })
  })

  test('check-har passes the HAR of a clean run with writes, and learns the receipts write answers hand out from the profile', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-writes-har-')), 'exchanges.har')
    // A raw record: the allowlist would keep the write's answer (which no schema describes) out as a stand-in.
    const run = await runAgainstReference(
      {},
      { allowWrites: true, rawRecord: true },
      { harPath, only: ['writes/intake-returns-identifier-and-receipt'] },
    )
    expect(idsWithStatus(run, 'failed')).toEqual([])
    // The run's HAR holds the placeholder; put a receipt back, as a recording by another tool would hold it.
    const receipt = `rcpt_${'5a'.repeat(20)}`
    const recorded = readFileSync(harPath, 'utf8')
    expect(recorded).toContain('$IPTS_WRITE_RECEIPT_1')
    writeFileSync(harPath, recorded.replaceAll('$IPTS_WRITE_RECEIPT_1', receipt))
    const held = await checkHar([harPath, '--profile', profile, '--strict'])
    expect(held.code, idsWithStatus(held.report, 'failed').join(', ')).toBe(0)
    expect(held.report.checks.find((c) => c.id === 'every-response/accepted-write-carries-key')?.status).toBe('passed')
    for (const text of held.files) expect(text.includes(receipt), 'the receipt in a file of check-har').toBe(false)
  })

  test('check-har names each signed body a client sent again under another key, and each key it sent with another body, without failing the target', async () => {
    const harPath = join(mkdtempSync(join(tmpdir(), 'ipts-writes-har-')), 'exchanges.har')
    await runAgainstReference({}, { allowWrites: true }, { harPath, only: ['writes/replay-creates-no-second-order'] })
    const har = JSON.parse(readFileSync(harPath, 'utf8')) as Har
    const writes = har.log.entries.filter(
      (entry) => entry.request.method === 'POST' && entry.request.url.endsWith('/v1/intents'),
    )
    expect(writes, 'the replay sent one body twice under one key').toHaveLength(2)
    // A client that gave the retry a new key, and one that gave the key a new body.
    const newKey = structuredClone(writes[1]!)
    newKey.request.headers = newKey.request.headers.map((h) =>
      h.name === 'idempotency-key' ? { ...h, value: 'another-key-0001' } : h,
    )
    const newBody = structuredClone(writes[1]!)
    newBody.request.postData = { mimeType: 'application/json', text: '{"kind":"intent","nonce":"2"}' }
    har.log.entries.push(newKey, newBody)
    writeFileSync(harPath, JSON.stringify(har))
    const held = await checkHar([harPath, '--profile', profile])
    expect(held.report.traffic?.clientRuleBreaches?.map((b) => b.message)).toEqual([
      expect.stringMatching(
        /^submitIntent: POST \/v1\/intents \(exchange \d+\) sent a signed body again under Idempotency-Key "another-key-0001"; it was sent under "[A-Za-z0-9-]{32}" before$/,
      ),
      expect.stringMatching(
        /^submitIntent: POST \/v1\/intents \(exchange \d+\) sent Idempotency-Key "[A-Za-z0-9-]{32}" with another body than before$/,
      ),
    ])
    expect(held.code, 'the client broke the rule, not the target').toBe(0)
    expect(
      held.files.some((text) => text.includes('The recorded client broke a rule for clients (2)')),
      'report.md names them',
    ).toBe(true)
  })

  test('the proxy fails a write the upstream accepted without Idempotency-Key, names a body retried under a new key, and keeps receipts out of its files', async () => {
    const reference = await startReferenceServer({ behaviours: [faultByName('write-without-key-accepted')!] })
    onTestFinished(() => reference.close())
    const dir = mkdtempSync(join(tmpdir(), 'ipts-writes-proxy-'))
    const { out, restore } = captureOutput()
    const exited = proxy(
      parseProxyArgs([
        '--upstream',
        reference.baseUrl,
        '--profile',
        profile,
        '--report-dir',
        dir,
        '--max-requests',
        '3',
      ]),
      {},
      new AbortController().signal,
    )
    try {
      await vi.waitFor(() => expect(out.join('')).toContain('\n'), { timeout: 10_000 })
      const { url } = JSON.parse(out.join('').split('\n')[0]!) as { url: string }
      const answer = await undiciRequest(`${url}/v1/intents`, {
        method: 'POST',
        headers: { 'x-api-key': reference.data.apiKey, 'content-type': 'application/json' },
        body: signedBody('intent'),
      })
      expect(answer.statusCode, 'forwarded, and accepted by the faulty upstream').toBe(202)
      const { data } = (await answer.body.json()) as { data: { receipt: string } }
      // A client that retries a body with a new key: the proxy kept the body it forwarded, and names the breach.
      const retried = signedBody('intent')
      for (const key of ['first-key-00001', 'second-key-0002']) {
        const sent = await undiciRequest(`${url}/v1/intents`, {
          method: 'POST',
          headers: { 'x-api-key': reference.data.apiKey, 'content-type': 'application/json', 'idempotency-key': key },
          body: retried,
        })
        await sent.body.dump()
      }
      expect(await exited).toBe(1)
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
      expect(idsWithStatus(report, 'failed')).toEqual(['every-response/accepted-write-carries-key'])
      expect(report.traffic?.clientRuleBreaches?.map((b) => b.message)).toEqual([
        expect.stringContaining(
          'sent a signed body again under Idempotency-Key "second-key-0002"; it was sent under "first-key-00001" before',
        ),
      ])
      for (const name of readdirSync(dir))
        expect(readFileSync(join(dir, name), 'utf8').includes(data.receipt), `the receipt in ${name}`).toBe(false)
    } finally {
      restore()
    }
  })
})
