import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { compareReports, readComparedReport } from '../../reporters/compare.js'
import { renderCompareHtml, renderCompareMarkdown } from '../../reporters/compare-render.js'
import { parseCheckHarArgs } from '../../src/cli/check-har.js'
import { compare, parseCompareArgs } from '../../src/cli/compare.js'
import { parseProxyArgs } from '../../src/cli/proxy.js'
import { parseReferenceArgs } from '../../src/cli/reference.js'
import { UsageError } from '../../src/core/errors.js'

/**
 * The tables of flags of reference, proxy and compare, read by their parsers: each flag's value taken, its kind kept
 * (a list repeats, a URL loses its trailing slash) and its bounds held just inside and just outside; and the files
 * compare writes, each its renderer's.
 */

afterEach(() => void vi.restoreAllMocks())

const refused = (parse: () => unknown, message: RegExp) => {
  expect(parse).toThrow(UsageError)
  expect(parse).toThrow(message)
}

describe('reference', () => {
  test('its defaults: a free port on 127.0.0.1, no fault, allowance, quota or latency', () => {
    expect(parseReferenceArgs([])).toMatchObject({
      list: false,
      port: 0,
      host: '127.0.0.1',
      faults: [],
      allowances: [],
      quota: undefined,
      latencyMs: undefined,
    })
  })

  test('each flag given is taken; --fault and --allowance repeat', () => {
    const options = parseReferenceArgs([
      ...['--port', '65535', '--host', '0.0.0.0', '--seed', '-2147483648', '--latency-ms', '600000'],
      ...['--fault', 'first-fault', '--fault', 'second-fault', '--allowance', 'an-allowance'],
      ...['--quota', '1000000', '--quota-window-ms', '3600000', '--list'],
    ])
    expect(options).toMatchObject({
      list: true,
      port: 65535,
      host: '0.0.0.0',
      seed: -2147483648,
      latencyMs: 600000,
      faults: ['first-fault', 'second-fault'],
      allowances: ['an-allowance'],
      quota: { limit: 1000000, windowMs: 3600000 },
    })
    expect(parseReferenceArgs(['--seed', '2147483647', '--quota', '1', '--quota-window-ms', '1'])).toMatchObject({
      seed: 2147483647,
      quota: { limit: 1, windowMs: 1 },
    })
    expect(parseReferenceArgs(['--quota', '5']).quota).toEqual({ limit: 5, windowMs: 1000 })
  })

  test.each([
    ['--port', '65536', 'from 0 to 65535'],
    ['--port', '-1', 'from 0 to 65535'],
    ['--seed', '2147483648', 'from -2147483648 to 2147483647'],
    ['--seed', '-2147483649', 'from -2147483648 to 2147483647'],
    ['--quota', '0', 'from 1 to 1000000'],
    ['--quota', '1000001', 'from 1 to 1000000'],
    ['--latency-ms', '600001', 'from 0 to 600000'],
    ['--latency-ms', '-1', 'from 0 to 600000'],
  ])('%s %s is refused, naming the bounds', (flag, value, bounds) => {
    refused(() => parseReferenceArgs([flag, value]), new RegExp(`--${flag.slice(2)}.*${bounds}`))
  })

  test.each([
    ['0', 'from 1 to 3600000'],
    ['3600001', 'from 1 to 3600000'],
  ])('--quota-window-ms %s is refused, naming the bounds', (value, bounds) => {
    refused(() => parseReferenceArgs(['--quota', '5', '--quota-window-ms', value]), new RegExp(bounds))
  })

  test('an argument that is no flag, and --quota-window-ms without --quota, are refused', () => {
    refused(
      () => parseReferenceArgs(['extra']),
      /^unexpected argument "extra" \(flags start with --; see reference --help\)$/,
    )
    refused(() => parseReferenceArgs(['--quota-window-ms', '10']), /^--quota-window-ms needs --quota$/)
  })
})

describe('check-har', () => {
  test('the HAR file, then --strict, --min-assessed, --baseline and --profile when given', () => {
    expect(parseCheckHarArgs(['x.har'], {})).toMatchObject({ file: 'x.har', strict: false })
    expect(
      parseCheckHarArgs(
        ['x.har', '--strict', '--min-assessed', '50', '--baseline', 'b.json', '--profile', 'p.yaml'],
        {},
      ),
    ).toMatchObject({ file: 'x.har', strict: true, minAssessed: 50, baseline: 'b.json', profile: 'p.yaml' })
  })
})

describe('proxy', () => {
  test('its defaults: a free port on 127.0.0.1, no bound on requests', () => {
    expect(parseProxyArgs(['--upstream', 'http://127.0.0.1:9/'])).toMatchObject({
      upstream: 'http://127.0.0.1:9',
      port: 0,
      host: '127.0.0.1',
      maxRequests: undefined,
    })
  })

  test('each flag given is taken, at its bounds', () => {
    const args = ['--upstream', 'http://127.0.0.1:9', '--port', '65535', '--host', '0.0.0.0']
    expect(parseProxyArgs([...args, '--max-requests', '100000000'])).toMatchObject({
      port: 65535,
      host: '0.0.0.0',
      maxRequests: 100_000_000,
    })
    expect(parseProxyArgs([...args, '--max-requests', '1']).maxRequests).toBe(1)
  })

  test.each([
    ['--upstream', 'not a url', 'URL'],
    ['--port', '65536', 'from 0 to 65535'],
    ['--max-requests', '0', 'from 1 to 100000000'],
    ['--max-requests', '100000001', 'from 1 to 100000000'],
  ])('%s %s is refused', (flag, value, problem) => {
    const upstream = flag === '--upstream' ? [] : ['--upstream', 'http://127.0.0.1:9']
    refused(() => parseProxyArgs([...upstream, flag, value]), new RegExp(`${flag}.*${problem}`))
  })
})

describe('compare', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-compare-flags-'))
  const report = (baseUrl: string, status: string) => ({
    tool: { name: 'ipts-conformance', version: '1.0.0' },
    target: { baseUrl },
    startedAt: '2026-11-27T10:00:00.000Z',
    summary: { verdict: status === 'passed' ? 'pass' : 'fail', failedMust: 0, failedShould: 0 },
    checks: [{ id: 'auth/missing-key', requirement: 'AUTH-1', level: 'MUST', status }],
    requirements: [{ id: 'AUTH-1', level: 'MUST', status }],
  })
  const reportFile = (name: string, baseUrl: string, status: string) => {
    const path = join(dir, name)
    writeFileSync(path, JSON.stringify(report(baseUrl, status)))
    return path
  }

  test('--report-dir, then IPTS_REPORT_DIR, then ./conformance-report', () => {
    const reports = ['a.json', 'b.json']
    expect(parseCompareArgs([...reports, '--report-dir', 'flag'], { IPTS_REPORT_DIR: 'env' })).toEqual({
      reports,
      reportDir: 'flag',
    })
    expect(parseCompareArgs(reports, { IPTS_REPORT_DIR: 'env' }).reportDir).toBe('env')
    expect(parseCompareArgs(reports, { IPTS_REPORT_DIR: '' }).reportDir).toBe('./conformance-report')
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    refused(() => parseCompareArgs([...reports, '--report-dir', file], {}), /--report-dir must name a folder/)
  })

  test('writes compare.json, compare.md and compare.html, each as its renderer makes it, and names them', async () => {
    const paths = [
      reportFile('one.json', 'https://one.example', 'passed'),
      reportFile('two.json', 'https://two.example', 'failed'),
    ]
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const reportDir = join(dir, 'out')
    expect(await compare({ reports: paths, reportDir })).toBe(0)
    const comparison = compareReports(
      await Promise.all(paths.map(async (path) => ({ path, report: await readComparedReport(path) }))),
    )
    const written = (file: string) => readFileSync(join(reportDir, file), 'utf8')
    expect(JSON.parse(written('compare.json'))).toEqual(comparison)
    expect(written('compare.json')).toBe(`${JSON.stringify(comparison, null, 2)}\n`)
    expect(written('compare.md')).toBe(renderCompareMarkdown(comparison))
    expect(written('compare.html')).toBe(renderCompareHtml(comparison))
    expect(out.mock.calls.map(([text]) => String(text)).join('')).toBe(
      [
        `${comparison.summary.differing} of ${comparison.summary.rows} rows differ across 2 reports`,
        ...['compare.json', 'compare.md', 'compare.html'].map((file) => `compare: ${join(reportDir, file)}`),
        '',
      ].join('\n'),
    )
  })
})
