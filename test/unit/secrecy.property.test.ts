import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { evidenceLines } from '../../reporters/evidence-text.js'
import { renderHtml } from '../../reporters/html.js'
import { levelOf } from '../../src/engine/judged-outcomes.js'
import { renderJson } from '../../reporters/json.js'
import { renderJunit } from '../../reporters/junit.js'
import { renderMarkdown } from '../../reporters/markdown.js'
import type { CheckOutcome, Report } from '../../src/core/report.js'
import { summarize } from '../../src/engine/summarize.js'
import { summaryLines } from '../../reporters/console.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { harEntries } from '../../src/har/from-exchange.js'
import { buildEvidence } from '../../src/engine/evidence.js'
import { HttpClient } from '../../src/http/client.js'
import { redact, redactDeep, type Secret } from '../../src/http/secrets.js'
import { ENCODERS, piecesOf, readerViews } from '../support/secret-encoders.js'

/**
 * The generative self-test of secrecy: secrets drawn over the whole of Unicode go through chains of real encoders into
 * the headers and body of an echo server's response, across the capture cap and the excerpt's cut; every byte the
 * suite writes of that exchange (report.json, junit.xml, report.html, the Markdown summary, the console, the HAR, an
 * error message) is read in every view a reader's decoders give, and no 8-character piece of a secret may be there.
 *
 * IPTS_SECRECY_RUNS sets the number of cases (two secrets each; 10 by default, so 20 secrets: each case reads seven
 * outputs, report.html's included, in up to READER_VIEWS views, a few seconds a case; set it to 100 or more for a
 * thorough run), IPTS_SECRECY_SEED the seed.
 */
const RUNS = Number(process.env.IPTS_SECRECY_RUNS ?? 10)
/**
 * How deep and how wide the reader decodes: two encoders in a chain, each read in one step (bytes are inflated as they
 * are read), inside the output's own escaping (JSON, HTML) and a percent-encoded URL.
 */
const READER_DEPTH = 4
const READER_VIEWS = 120
const SEED = Number(process.env.IPTS_SECRECY_SEED ?? 19)
/** The capture cap's kept start (src/http/response-body.ts) and the body excerpt's length (src/harness/evidence.ts). */
const CAPTURE_KEPT = 64 * 1024
const EXCERPT_CHARS = 2000

/**
 * Markers: three letters that are not hex digits and a digit, between chunks of at most four characters (a grapheme at
 * most two), so that every 8-character piece of a secret holds a digit and some of a marker: no ordinary text holds
 * one, and none is a run of letters (a word, which redaction does not take for a piece of a secret).
 */
const MARKER_LETTERS = [...'GHJKLMNPQRSTVWXYZghjkmnpqrstvwxyz']
const SPECIALS = [...'~!\'()*+/=% &;<>"\\']
const marker = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...MARKER_LETTERS), minLength: 3, maxLength: 3 }),
    fc.integer({ min: 0, max: 9 }),
  )
  .map(([letters, digit]) => `${letters}${digit}`)
const chunk = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 2 }),
  fc.string({ unit: fc.constantFrom(...SPECIALS), minLength: 1, maxLength: 4 }),
  fc.constantFrom('\u0301', 'e\u0301', '\u{1F600}', '\u{10FFFD}', ' ', '  ', '%25', '&amp;', '\\u0041'),
)
/** A secret: markers between pieces of any Unicode, short (10 characters) to long (hundreds). */
const secret = fc
  .oneof(
    { weight: 4, arbitrary: fc.array(fc.tuple(marker, chunk), { minLength: 2, maxLength: 6 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(marker, chunk), { minLength: 10, maxLength: 30 }) },
  )
  .map((pairs) => pairs.map(([m, c]) => m + c).join(''))

const PLACEMENTS = [
  'header',
  'link',
  'location',
  'body value',
  'body key',
  'split across two members',
  'across the capture cap',
  'across the excerpt cut',
  'masked',
] as const
/** The encoders whose output is a compressed stream. */
const COMPRESSING = /gzip|zlib|deflate/

/** The mask after the beginning of a secret in the 'masked' placement. */
const MASK = '********'
type Placement = (typeof PLACEMENTS)[number]

interface Disclosure {
  /** 0: the API key, 1: the receipt. */
  which: 0 | 1
  chain: string[]
  placement: Placement
  /** Where in the encoded secret a cut falls, as a fraction of its length. */
  cutAt: number
}

const disclosure = fc.record({
  which: fc.constantFrom(0 as const, 1 as const),
  chain: fc.array(fc.constantFrom(...Object.keys(ENCODERS)), { minLength: 1, maxLength: 2 }),
  placement: fc.constantFrom(...PLACEMENTS),
  cutAt: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
})

const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * A header value as a server can send it: UTF-8 bytes as they go on the wire (read back as Latin-1), percent-encoded
 * where even those are not allowed.
 */
function headerSafe(text: string): string {
  if (HEADER_SAFE.test(text)) return text
  const bytes = Buffer.from(text, 'utf8').toString('latin1')
  return HEADER_SAFE.test(bytes) ? bytes : encodeURIComponent(text)
}

interface Echo {
  headers: Record<string, string>
  body: string
}

/** The response for the secrets and their disclosures. */
function echoOf(secrets: readonly string[], disclosures: readonly Disclosure[]): Echo {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'req-secrecy-0001' }
  const members: string[] = []
  let before = ''
  let capped: { encoded: string; split: number } | undefined
  disclosures.forEach((d, i) => {
    const encoded = d.chain.reduce((text, name) => ENCODERS[name]!(text), secrets[d.which]!)
    const split = Math.max(1, Math.min(encoded.length - 1, Math.round(encoded.length * d.cutAt)))
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1)
    switch (d.placement) {
      case 'header':
        headers[`x-echo-${i}`] = `[${headerSafe(encoded)}]`
        break
      case 'link':
        headers.link = `${headers.link ? `${headers.link}, ` : ''}</v1/intents/x?receipt=${headerSafe(encoded)}>; rel="related"`
        break
      case 'location':
        headers[headers.location ? `content-location-${i}` : 'location'] =
          `http://127.0.0.1/v1/intents/x?receipt=${headerSafe(encoded)}`
        break
      case 'body value':
        members.push(`"echo${i}":${JSON.stringify(encoded)}`)
        break
      case 'body key':
        members.push(`${JSON.stringify(encoded)}:${i}`)
        break
      case 'split across two members':
        members.push(
          `"start${i}":${JSON.stringify(encoded.slice(0, split))}`,
          `"end${i}":${JSON.stringify(encoded.slice(split))}`,
        )
        break
      case 'masked':
        // The secret's beginning as a masker shows it (4 characters or more, not encoded), in an error message.
        members.push(`"message${i}":${JSON.stringify(`key ${maskedOf(secrets[d.which]!, d.cutAt)} refused`)}`)
        break
      case 'across the capture cap':
        if (capped) members.push(`"echo${i}":${JSON.stringify(encoded)}`)
        else capped = { encoded, split }
        break
      case 'across the excerpt cut':
        // The body's first member: the excerpt's cut falls `split` characters into the secret's text.
        if (before) members.push(`"echo${i}":${JSON.stringify(encoded)}`)
        else
          before = `"cut":"${pad(EXCERPT_CHARS - '{"cut":"'.length - escaped(encoded.slice(0, split)).length)}${escaped(encoded)}"`
        break
    }
  })
  let body = `{${[before, ...members].filter(Boolean).join(',')}`
  if (capped) {
    // The last member, padded with short words (not one base64 token) so that the cap falls `split` characters into the
    // secret's text.
    const head = `${body}${body.length > 1 ? ',' : ''}"cap":"`
    const escaped = JSON.stringify(capped.encoded).slice(1, -1)
    const padding = pad(
      CAPTURE_KEPT -
        Buffer.byteLength(head) -
        Buffer.byteLength(JSON.stringify(capped.encoded.slice(0, capped.split)).slice(1, -1)),
    )
    body = `${head}${padding}${escaped}${'z'.repeat(4096)}"`
  }
  body += '}'
  return { headers, body }
}

/** The secret's beginning, 4 characters up to half of it, then a mask. */
function maskedOf(secret: string, cutAt: number): string {
  return `${secret.slice(0, Math.max(4, Math.floor((secret.length * cutAt) / 2)))}${MASK}`
}

/** Padding of short words, `length` characters. */
function pad(length: number): string {
  return 'aaaa '.repeat(Math.ceil(Math.max(0, length) / 5)).slice(0, Math.max(0, length))
}

/** Everything the suite writes of one exchange, each with where it goes. */
function writtenOf(
  exchange: Awaited<ReturnType<HttpClient['get']>>,
  secrets: readonly Secret[],
  receipt: string,
): { where: string; text: string }[] {
  const rule = exchangeRules.find((r) => r.id === 'every-response/receipt-not-disclosed')!
  const settings = { intent: { receipt } } as Parameters<typeof rule.violation>[2]
  const finding = exchange.response ? rule.violation(exchange.response, exchange, settings) : undefined
  const message = typeof finding === 'string' ? finding : (finding?.message ?? 'no finding')
  const evidence = buildEvidence(message, { exchange }, secrets)
  const requirement = 'RCPT-NOT-DISCLOSED'
  const outcome: CheckOutcome = {
    id: rule.id,
    title: rule.title,
    requirement,
    ...levelOf(requirement),
    concern: 'every response',
    status: 'failed',
    reason: message,
    evidence,
  }
  const headerValues = Object.values(exchange.response?.headers ?? {}).flat()
  const errors = [
    `internal error: could not read the response to ${exchange.request.url}: headers ${headerValues.join(' | ')}`,
  ]
  const report = redactDeep<Report>(
    {
      tool: { name: 'ipts-conformance', version: '0.0.0' },
      target: { baseUrl: 'http://127.0.0.1:1', embedded: false },
      startedAt: new Date(0).toISOString(),
      durationMs: 0,
      strict: false,
      summary: summarize([outcome], false, errors),
      checks: [outcome],
      requirements: [],
      coverage: { operations: [], requirements: [], summary: { assessed: 0, observable: 0, percent: 0 } },
      errors,
    },
    secrets,
  )
  return [
    { where: 'report.json', text: renderJson(report) },
    { where: 'junit.xml', text: renderJunit(report) },
    { where: 'report.html', text: renderHtml(report) },
    { where: 'summary.md', text: renderMarkdown(report) },
    {
      where: 'console',
      text: [...summaryLines(report, ['report.json']), ...evidenceLines(report.checks[0]!.evidence!)].join('\n'),
    },
    { where: 'exchanges.har', text: JSON.stringify({ log: { entries: harEntries(exchange, [rule.id], secrets) } }) },
    {
      where: 'error message',
      text: redact(new Error(`GET ${exchange.request.url} failed: ${headerValues.join(', ')}`).message, secrets),
    },
  ]
}

/**
 * The pieces of secrets found in any reader's view of what was written: none, for a run that keeps its secrets. The
 * masked beginnings shown are pieces too, however short.
 */
function leaksIn(
  written: readonly { where: string; text: string }[],
  secrets: readonly Secret[],
  masked: readonly string[] = [],
): string[] {
  const pieces = [
    ...secrets.flatMap((s) => piecesOf(s.value).map((piece) => ({ piece, placeholder: s.placeholder }))),
    ...masked.map((piece) => ({ piece, placeholder: 'a masked beginning' })),
  ]
  const leaks: string[] = []
  for (const { where, text } of written) {
    for (const view of readerViews(text, READER_DEPTH, READER_VIEWS)) {
      const found = pieces.find(({ piece }) => view.includes(piece))
      if (found) {
        const at = view.indexOf(found.piece)
        leaks.push(
          `${found.placeholder} in ${where}: ${JSON.stringify(found.piece)} in …${JSON.stringify(view.slice(Math.max(0, at - 60), at + 60))}…`,
        )
        break
      }
    }
  }
  return leaks
}

describe('secrecy, generated', () => {
  test(`no 8-character piece of a generated secret, through any chain of real encoders, is in anything the suite writes (${RUNS} cases of 2 secrets, seed ${SEED})`, async () => {
    let echo: Echo = { headers: {}, body: '{}' }
    const server = createServer((_: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, echo.headers)
      res.end(Buffer.from(echo.body, 'utf8'))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const client = new HttpClient({
      baseUrl,
      concurrency: 1,
      connectTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
      maxBodyBytes: CAPTURE_KEPT,
    })
    let generated = 0
    let withheld = 0
    try {
      await fc.assert(
        fc.asyncProperty(
          secret,
          secret,
          fc.array(disclosure, { minLength: 1, maxLength: 3 }),
          async (key, receipt, disclosures) => {
            fc.pre(key !== receipt)
            generated += 2
            const secrets: Secret[] = [
              { value: key, placeholder: '$IPTS_API_KEY' },
              { value: receipt, placeholder: '$IPTS_INTENT_RECEIPT' },
            ]
            echo = echoOf([key, receipt], disclosures)
            const exchange = await client.get({
              path: `/v1/intents/0xab?receipt=${encodeURIComponent(receipt)}`,
              headers: HEADER_SAFE.test(key) ? { 'x-api-key': key } : {},
              retry: false,
            })
            expect(exchange.response, `the echo server answers: ${exchange.error?.message}`).toBeDefined()
            const written = writtenOf(exchange, secrets, receipt)
            withheld += written.filter(({ text }) => text.includes('[withheld: ')).length
            const masked = disclosures
              .filter((d) => d.placement === 'masked')
              .map((d) => maskedOf([key, receipt][d.which]!, d.cutAt))
            expect(leaksIn(written, secrets, masked), `disclosures ${JSON.stringify(disclosures)}`).toEqual([])
            // A compressed stream cut in two is read whole by no one: each half may hold too little of the receipt.
            const wholeReceipt = disclosures.some(
              (d) =>
                d.which === 1 &&
                !['across the capture cap', 'masked'].includes(d.placement) &&
                !(d.placement === 'split across two members' && d.chain.some((name) => COMPRESSING.test(name))),
            )
            if (wholeReceipt)
              expect(written[0]!.text, 'every-response/receipt-not-disclosed sees the receipt').toContain(
                'the response repeats a receipt',
              )
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
    } finally {
      await client.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    expect(generated, 'secrets generated').toBeGreaterThanOrEqual(2 * RUNS)
    console.log(`secrecy: ${generated} secrets, ${withheld} outputs with a string withheld whole`)
  })
})
