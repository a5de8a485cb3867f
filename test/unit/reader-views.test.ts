import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { ENCODERS, piecesOf, readerViews } from '../support/secret-encoders.js'

/**
 * The oracle of the secrecy tests (test/support/secret-encoders.ts) is itself tested: a secret put through each
 * encoder and written where the suite writes (a console line, a JSON report, a body inside a HAR, markup) is found,
 * however much else the file holds; a file without it holds none of its pieces.
 */
const SECRETS = ['K~!(x) é+/=', 'GHJ1~!"<x>\\%25 é\u{1F600}+/=KLM2&amp;']
const OTHER = 'QRS7~!(y) ü-/*TVW8'

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex')
const xmlEscaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Exchanges of another run before the one that leaks: hashes, base64, percent-escapes, bodies of JSON. */
const otherEntries = Array.from({ length: 5 }, (_, i) => ({
  request: {
    url: `http://127.0.0.1:1/v1/intents/0x${hashOf(`intent ${i}`)}?cursor=${encodeURIComponent(Buffer.from(hashOf(`${i}`)).toString('base64'))}`,
    headers: [{ name: 'x-request-id', value: `req-${hashOf(`req ${i}`).slice(0, 20)}` }],
  },
  response: { content: { text: JSON.stringify({ data: { id: hashOf(`id ${i}`), note: `n\u00e9 ${i} %20 a+b` } }) } },
}))

const places: Record<string, (encoded: string) => string> = {
  'a console line': (e) => `GET /v1/vault 200\nGET /x failed: ${e}\ndone`,
  'a pretty-printed JSON report': (e) =>
    JSON.stringify(
      {
        checks: [
          { id: 'a', reason: 'x' },
          { id: 'b', reason: `got ${e} back` },
        ],
      },
      null,
      2,
    ),
  'a body member in a HAR, after other exchanges': (e) =>
    JSON.stringify({
      log: { entries: [...otherEntries, { response: { content: { text: JSON.stringify({ echo: e }) } } }] },
    }),
  'a member name of a body in a HAR': (e) =>
    JSON.stringify({ log: { entries: [{ response: { content: { text: `{${JSON.stringify(e)}:1}` } } }] } }),
  'a header value in a HAR, in a URL': (e) =>
    JSON.stringify({ log: { entries: [{ response: { headers: [{ name: 'link', value: `</x?r=${e}>; rel=a` }] } }] } }),
  'a cut body excerpt in a JSON report': (e) =>
    JSON.stringify({ evidence: { bodyExcerpt: `{"a":[1,2],"echo":${JSON.stringify(e)},"cut":"xxxx` } }),
  'an XML attribute and its text': (e) =>
    `<?xml version="1.0"?>\n<testsuite><testcase name="a"><failure message="${xmlEscaped(e)}">${xmlEscaped(`body: ${e}`)}</failure></testcase></testsuite>`,
  'the text of an HTML page': (e) => `<!doctype html>\n<html><body><pre>${xmlEscaped(e)}</pre></body></html>`,
}

/** The first piece of the secrets in any view of the text, as the secrecy tests look (3 decodings, 40 views). */
function pieceFound(text: string, secrets: readonly string[]): string | undefined {
  const pieces = secrets.flatMap((secret) => piecesOf(secret))
  for (const view of readerViews(text, 3, 40)) {
    const piece = pieces.find((p) => view.includes(p))
    if (piece) return piece
  }
  return undefined
}

describe("the secrecy tests' reader", () => {
  test.each(Object.keys(ENCODERS))('finds a secret encoded as %s, wherever the suite writes it', (encoder) => {
    const missed: string[] = []
    for (const secret of SECRETS)
      for (const [place, write] of Object.entries(places))
        if (pieceFound(write(ENCODERS[encoder]!(secret)), [secret]) === undefined)
          missed.push(`${JSON.stringify(secret)} in ${place}`)
    expect(missed).toEqual([])
  })

  test('finds a secret in JSON nested deeper than the stack', () => {
    const deep = `${'['.repeat(100_000)}${JSON.stringify(ENCODERS['base64 at byte 1']!(SECRETS[0]!))}${']'.repeat(100_000)}`
    expect(pieceFound(`{"deep":${deep}}`, [SECRETS[0]!])).toBeDefined()
    expect(pieceFound(`{"body":${JSON.stringify(deep)}}`, [SECRETS[0]!])).toBeDefined()
  })

  test('finds no piece of a secret in a file that holds another, in any encoding', () => {
    const found: string[] = []
    for (const [encoder, encode] of Object.entries(ENCODERS))
      for (const [place, write] of Object.entries(places)) {
        const piece = pieceFound(write(encode(OTHER)), SECRETS)
        if (piece) found.push(`${JSON.stringify(piece)} in ${encoder} in ${place}`)
      }
    expect(found).toEqual([])
  })
})
