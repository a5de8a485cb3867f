import { deflateRawSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { decodedViews } from '../../src/http/decoded-views.js'
import { buildEvidence, curlCommand } from '../../src/engine/evidence.js'
import type { Exchange } from '../../src/http/exchange.js'
import {
  excerpt,
  GrowingSecrets,
  mentionsSecret,
  redact,
  RECENT_CHARS,
  redactDeep,
  rememberedChars,
  withoutSecretTail,
  type Secret,
} from '../../src/http/secrets.js'

const receipt = "rcpt 1a2b~!'(x)/+=é"
const secrets: Secret[] = [{ value: receipt, placeholder: '$IPTS_INTENT_RECEIPT' }]
const formPlus = new URLSearchParams({ r: receipt }).toString().slice(2)

/** The receipt as each encoder writes it. */
const encoded: Record<string, string> = {
  raw: receipt,
  encodeURIComponent: encodeURIComponent(receipt),
  'encodeURIComponent, lower-case escapes': encodeURIComponent(receipt).replace(/%[0-9A-F]{2}/g, (e) =>
    e.toLowerCase(),
  ),
  'URLSearchParams (+ for space)': formPlus,
  'form-encoded with %20 for space': formPlus.replace(/\+/g, '%20'),
  'form-encoded, lower-case escapes': formPlus.toLowerCase(),
  'JSON-escaped': JSON.stringify(receipt).slice(1, -1),
  'JSON-escaped with \\/': JSON.stringify(receipt).slice(1, -1).replace(/\//g, '\\/'),
  'JSON-escaped with \\/ and \\u00e9': JSON.stringify(receipt)
    .slice(1, -1)
    .replace(/\//g, '\\/')
    .replace('é', '\\u00e9'),
  'JSON pointer': receipt.replace(/~/g, '~0').replace(/\//g, '~1'),
  'UTF-8 read as Latin-1 (a header value)': Buffer.from(receipt, 'utf8').toString('latin1'),
  base64: Buffer.from(receipt).toString('base64'),
  'base64 one byte in': Buffer.from(`x${receipt}y`).toString('base64'),
  'base64url two bytes in': Buffer.from(`xy${receipt}`).toString('base64url'),
  'WHATWG URL serialisation': new URL(`http://h/?receipt=${receipt}`).search.slice('?receipt='.length),
  'JSON escaping every non-alphanumeric character, upper-case hex (.NET)': [...receipt]
    .map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`))
    .join(''),
  'escape()': escape(receipt),
  'HTML references, named and numeric': receipt.replace(/[^A-Za-z0-9]/g, (c) =>
    c === '&' ? '&amp;' : c === '/' ? '&sol;' : `&#x${c.charCodeAt(0).toString(16)};`,
  ),
  'percent-encoded twice': encodeURIComponent(encodeURIComponent(receipt)),
  'percent-encoded inside a JSON string inside a JSON string': JSON.stringify(
    JSON.stringify({ u: `/x?r=${encodeURIComponent(receipt)}` }),
  ),
}

/**
 * Keys a proxy learns from a client that sends many (the suite's own traffic does): enough for redact() to scan once
 * for all forms.
 */
const learnedKeys: Secret[] = Array.from({ length: 300 }, (_, i) => ({
  value: `garbage-key-${i}`,
  placeholder: `$IPTS_API_KEY_${i + 2}`,
}))

describe.each([
  ['one secret', secrets],
  ['among 300 learned keys', [...learnedKeys, ...secrets]],
])('redaction of %s', (_, secrets) => {
  test.each(Object.entries(encoded))('replaces the secret written %s', (_, form) => {
    const text = `before ${form} after`
    expect(mentionsSecret(text, receipt)).toBe(true)
    const redacted = redact(text, secrets)
    expect(redacted).toContain('$IPTS_INTENT_RECEIPT')
    expect(redacted).not.toContain('1a2b')
  })

  test('redacts member names as well as values', () => {
    const redacted = redactDeep({ [receipt]: { [formPlus]: receipt } }, secrets)
    expect(redacted).toEqual({ $IPTS_INTENT_RECEIPT: { $IPTS_INTENT_RECEIPT: '$IPTS_INTENT_RECEIPT' } })
  })

  test('cuts an excerpt after redacting, so no piece of a secret across the cut is left', () => {
    const text = `${'x'.repeat(95)}${receipt}`
    expect(excerpt(text, 100, secrets)).toBe(`${'x'.repeat(95)}$IPTS`)
  })

  test("cuts a long schema violation's value after redacting it", () => {
    const value = `${'x'.repeat(490)}${receipt}`
    const evidence = buildEvidence(
      'failed',
      {
        violations: [
          {
            schema: 'S',
            keyword: 'pattern',
            instancePath: '/a',
            schemaPath: '#',
            params: {},
            message: 'must match',
            value,
          },
        ],
      },
      secrets,
    )
    expect(JSON.stringify(evidence)).not.toContain('1a2b')
  })

  test('leaves text without the secret, or a piece of it of 8 characters, as it is', () => {
    expect(redact('rcpt 1x2b and %7E%21 and cnNwdCAx', secrets)).toBe('rcpt 1x2b and %7E%21 and cnNwdCAx')
  })

  test('replaces a piece of 8 characters of the secret, found where the whole is not (an encoder dropped a character)', () => {
    // What follows the dropped character is shorter than a piece, and goes too: a piece of the secret was found there.
    expect(redact(`receipt=${encodeURIComponent(receipt.replace('(', ''))}`, secrets)).toBe(
      'receipt=[part of $IPTS_INTENT_RECEIPT]',
    )
  })

  test('does not take a word out of ordinary text for a piece of a key that holds it', () => {
    const key: Secret[] = [{ value: 'ipts_restricted_0123456789abcdef', placeholder: '$IPTS_RESTRICTED_API_KEY' }]
    expect(redact('auth/restricted-key-scope', key)).toBe('auth/restricted-key-scope')
    const filler: Secret[] = [{ value: 'not-the-receipt.not-the-receipt.', placeholder: '$IPTS_INTENT_RECEIPT_2' }]
    expect(redact('intents/missing-receipt-refused', filler)).toBe('intents/missing-receipt-refused')
  })
})

test.each([
  ['13 keys (each form searched for in turn)', learnedKeys.slice(0, 13)],
  ['300 keys (one pass for every form)', learnedKeys],
])('replaces a secret that contains another whole, among %s', (_, keys) => {
  expect(redact('garbage-key-12, garbage-key-1; garbage-key-1garbage-key-12', keys)).toBe(
    '$IPTS_API_KEY_14, $IPTS_API_KEY_3; $IPTS_API_KEY_3$IPTS_API_KEY_14',
  )
})

describe('the three leaks of issue 19', () => {
  const key = 'K~!(x) é+/='
  const issueReceipt = 'R~!(x)é+/=zz'
  const both: Secret[] = [
    { value: key, placeholder: '$IPTS_API_KEY' },
    { value: issueReceipt, placeholder: '$IPTS_INTENT_RECEIPT' },
  ]

  test('a WHATWG-serialised URL in a Link header', () => {
    const link = '</v1/intents/x?receipt=R~!(x)%C3%A9+/=zz>; rel="related"'
    expect(link).toContain(new URL(`http://h/?r=${issueReceipt}`).search.slice(3))
    expect(mentionsSecret(link, issueReceipt)).toBe(true)
    expect(redact(link, both)).toBe('</v1/intents/x?receipt=$IPTS_INTENT_RECEIPT>; rel="related"')
  })

  test('JSON escaping every non-alphanumeric character in upper-case hex', () => {
    const body =
      '{"receipt":"R\\u007E\\u0021\\u0028x\\u0029\\u00E9\\u002B\\u002F\\u003Dzz","key":"K\\u007E!(x)\\u0020\\u00E9+/="}'
    expect(mentionsSecret(body, issueReceipt)).toBe(true)
    expect(mentionsSecret(body, key)).toBe(true)
    expect(redact(body, both)).toBe('{"receipt":"$IPTS_INTENT_RECEIPT","key":"$IPTS_API_KEY"}')
  })

  test('a body cut at the capture cap through a receipt loses the beginning of the receipt, raw or encoded', () => {
    expect(withoutSecretTail(`${'a'.repeat(100)}R~!(`, both)).toBe('a'.repeat(100))
    expect(withoutSecretTail(`${'a'.repeat(100)}R~!(x)%C3%A`, both)).toBe('a'.repeat(100))
    expect(withoutSecretTail(`${'a'.repeat(100)}R\\u007E\\u00`, both)).toBe('a'.repeat(100))
    // A space before the base64: glued to the a's it would be one token, whose alignments read as garbage.
    expect(withoutSecretTail(`${'a'.repeat(100)} ${Buffer.from(`xyR~!(x)é+`).toString('base64')}`, both)).toBe(
      `${'a'.repeat(100)} `,
    )
    expect(withoutSecretTail(`${'a'.repeat(100)}R`, both), 'one character is not recognisably a secret').toBe(
      `${'a'.repeat(100)}R`,
    )
  })

  test('withholds a string whole when the span of a secret cannot be cut out without leaving it', () => {
    // The receipt's base64 overlaps the key's in one token: the cut of the first leaves the second's groups in pieces.
    const redacted = redact(Buffer.from(`${issueReceipt}${key}`).toString('base64'), both)
    expect(redacted).not.toMatch(/Un4hKHgp|S34hKHgp/)
    expect(redacted).toContain('$IPTS_')
  })
})

test('finds a secret holding what looks like an escape, written by an encoder that leaves it and escapes the rest', () => {
  const tricky = 'k3y-é-%25-&amp;-\\u0041-z'
  const url = new URL('http://h/x')
  url.search = `k=${tricky}`
  expect(url.search, 'WHATWG URL keeps % and escapes é').toBe('?k=k3y-%C3%A9-%25-&amp;-\\u0041-z')
  expect(redact(url.href, [{ value: tricky, placeholder: '$IPTS_API_KEY' }])).toBe('http://h/x?k=$IPTS_API_KEY')
})

test('does not search the names it put in again: a placeholder that reads as another secret is no disclosure', () => {
  // Contrived: one secret's placeholder is another secret; the name is the suite's, not the target's.
  const tangled: Secret[] = [
    { value: 'IPTS_RECEIPT_TWO', placeholder: '$IPTS_INTENT_RECEIPT' },
    { value: 'k3y-0f-the-run-42', placeholder: '$IPTS_RECEIPT_TWO' },
  ]
  expect(redact('sent k3y-0f-the-run-42 and more', tangled)).toBe('sent $IPTS_RECEIPT_TWO and more')
})

describe('the leaks the generative secrecy test found at 60 runs (seeds 7, 19 and 123)', () => {
  const found = (secret: string) => [{ value: secret, placeholder: '$IPTS_INTENT_RECEIPT' }]
  const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')

  test('raw deflate of a short receipt in base64, whose few bytes are mostly UTF-8 by chance', () => {
    const short = 'mpW5~+;ytJ6\u{10CFD}'
    const token = deflateRawSync(Buffer.from(short, 'utf8')).toString('base64')
    expect(token).toBe('yy0IN63Ttq4s8TL7MGHzXgA=')
    expect(redact(`{"${token}":1}`, found(short))).toBe('{"$IPTS_INTENT_RECEIPT=":1}')
    // Ten characters deflate to fewer than 20 of base64, and a body may hold more such tokens before it.
    const tiny = 'RYr3\u0301NkZ1\u0301'
    const tinyToken = deflateRawSync(Buffer.from(tiny, 'utf8')).toString('base64')
    expect(tinyToken).toHaveLength(20)
    const ids = Array.from({ length: 6 }, (_, i) => `"id${i}":"Ab3${'xY9z'.repeat(4)}${i}"`).join(',')
    expect(mentionsSecret(`{${ids},"echo":"${tinyToken}"}`, tiny)).toBe(true)
  })

  test('the hex of a receipt right after hex digits, or holding a control character', () => {
    const cut = 'nqp3 mKN4\u{D5674}LrH2\u{1F600}'
    for (const before of ['aa', 'aaa', 'aaaa ', 'deadbeef'])
      expect(redact(`${before}${hex(cut)}`, found(cut)), before).toBe(`${before}$IPTS_INTENT_RECEIPT`)
    const control = 'vJy8Ntw8\u0002hNp7'
    expect(redact(`"${hex(control)}"`, found(control))).toBe('"$IPTS_INTENT_RECEIPT"')
  })

  test('UTF-16 read as Latin-1 after a long run of text, and percent-encoded twice inside it', () => {
    const secret = 'SGW9\u00e9RWK7\\u0041tgj7 ='
    const utf16 = (text: string) => Buffer.from(text, 'utf16le').toString('latin1')
    // The padding's units are Latin-1 too: read with it, the UTF-16's zero bytes were too few to be taken for UTF-16.
    expect(redact(`${'aaaa '.repeat(400)}${utf16(secret)}`, found(secret))).toBe(
      `${'aaaa '.repeat(400)}$IPTS_INTENT_RECEIPT`,
    )
    const twice = encodeURIComponent(encodeURIComponent(secret))
    expect(mentionsSecret(`${'aaaa '.repeat(400)}${utf16(twice)}`, secret)).toBe(true)
    // Binary read again made a new view each time (the same readings added again), and left none for the rest.
    expect(decodedViews(utf16(twice)).filter((view) => view.via.startsWith('binary+binary'))).toEqual([])
  })

  test('gzip in base64, in base64 again from its second byte: the stream one character into the token', () => {
    const secret = 'mNW0&&<\\zqk3)!(MPV2*)Mjw9'
    const gzipped = gzipSync(`{"session":${JSON.stringify(secret)}}`).toString('base64')
    const again = Buffer.concat([Buffer.from('x'), Buffer.from(gzipped)]).toString('base64')
    expect(mentionsSecret(`[${again}]`, secret)).toBe(true)
    expect(redact(`[${again}]`, found(secret))).not.toContain(again.slice(8, 16))
  })

  test('the hex of hex, which is decimal digits alone; a number is still no hex', () => {
    const secret = 'vJy8Ntw8hNp7rcpt'
    const twice = hex(hex(secret))
    expect(twice).toMatch(/^[0-9]+$/)
    expect(redact(`receipt=${twice}`, found(secret))).toBe('receipt=$IPTS_INTENT_RECEIPT')
    const utf16OfHex = Buffer.from(hex(secret), 'utf16le').swap16().toString('hex')
    expect(utf16OfHex).toMatch(/^[0-9]+$/)
    expect(redact(`receipt=${utf16OfHex}`, found(secret))).toBe('receipt=$IPTS_INTENT_RECEIPT')
    // The bytes of a number read as hex are no text: it is not read, and so not withheld or cut.
    const amount = '1000000000000000000000000'
    expect(decodedViews(`{"amount":"${amount}"}`).map((view) => view.via)).toEqual([''])
  })
})

describe('the curl command', () => {
  const exchange: Exchange = {
    request: {
      method: 'GET',
      url: `http://127.0.0.1:1/v1/intents/0xab?receipt=${formPlus}&limit=5`,
      headers: { 'x-api-key': 'k3y with space', accept: 'application/json' },
    },
    durationMs: 0,
    retries: [],
  }
  const withKey: Secret[] = [...secrets, { value: 'k3y with space', placeholder: '$IPTS_API_KEY' }]

  test('sends a query parameter holding a secret through --data-urlencode, so the shell puts the raw secret there', () => {
    expect(curlCommand(exchange, withKey)).toBe(
      'curl -sS -i -H "x-api-key: ${IPTS_API_KEY}" -H "accept: application/json" -G --data-urlencode "receipt=${IPTS_INTENT_RECEIPT}" "http://127.0.0.1:1/v1/intents/0xab?limit=5"',
    )
  })

  test('braces a variable followed by more characters, as a garbage key made of the real one is', () => {
    const garbage = {
      ...exchange,
      request: {
        ...exchange.request,
        url: 'http://127.0.0.1:1/v1/vault',
        headers: { 'x-api-key': 'k3y with spaceAB_1' },
      },
    }
    expect(curlCommand(garbage, withKey)).toBe(
      'curl -sS -i -H "x-api-key: ${IPTS_API_KEY}AB_1" "http://127.0.0.1:1/v1/vault"',
    )
  })

  test('escapes a dollar sign that is not a placeholder', () => {
    const dollar = {
      ...exchange,
      request: { ...exchange.request, url: 'http://127.0.0.1:1/v1/vault?a=$HOME', headers: {} },
    }
    expect(curlCommand(dollar, withKey)).toBe('curl -sS -i "http://127.0.0.1:1/v1/vault?a=\\$HOME"')
  })

  test('keeps the URL as it is when no secret is in the query', () => {
    expect(
      curlCommand({ ...exchange, request: { ...exchange.request, url: 'http://127.0.0.1:1/v1/vault?a=%7E' } }, withKey),
    ).toBe(
      'curl -sS -i -H "x-api-key: ${IPTS_API_KEY}" -H "accept: application/json" "http://127.0.0.1:1/v1/vault?a=%7E"',
    )
  })
})

describe('the secrets a run learns as it goes (receipts its writes are handed)', () => {
  test('numbers each new value under its prefix in the order learned, gives a value learned again its first placeholder, and keeps the secrets given', () => {
    const given = [{ value: 'given-key-0123456789', placeholder: '$IPTS_API_KEY' }]
    const secrets = new GrowingSecrets(given)
    expect(secrets.all()).toEqual(given)
    expect(secrets.learn('receipt-one-0123456789', '$IPTS_WRITE_RECEIPT_')).toBe('$IPTS_WRITE_RECEIPT_1')
    expect(secrets.learn('receipt-two-0123456789', '$IPTS_WRITE_RECEIPT_')).toBe('$IPTS_WRITE_RECEIPT_2')
    expect(secrets.learn('receipt-one-0123456789', '$IPTS_WRITE_RECEIPT_')).toBe('$IPTS_WRITE_RECEIPT_1')
    expect(secrets.learn('other-value-0123456789', '$IPTS_OTHER_')).toBe('$IPTS_OTHER_1')
    expect(secrets.all()).toEqual([
      ...given,
      { value: 'receipt-one-0123456789', placeholder: '$IPTS_WRITE_RECEIPT_1' },
      { value: 'receipt-two-0123456789', placeholder: '$IPTS_WRITE_RECEIPT_2' },
      { value: 'other-value-0123456789', placeholder: '$IPTS_OTHER_1' },
    ])
    expect(given, 'the secrets given are not changed').toHaveLength(1)
  })

  test('a list grown one secret at a time redacts as a list made whole does, each secret whole, in part and with others', () => {
    const grown = new GrowingSecrets([{ value: 'given-key-0123456789', placeholder: '$IPTS_API_KEY' }])
    const receipts = ['rcpt_4f1c9a07d2e8b3', 'rcpt 9a07 d2e8 b34f 1c', 'rcpt_4f1c9a07d2e8b3-longer-one']
    const texts = (receipt: string) => [
      `{"receipt":"${receipt}","key":"given-key-0123456789"}`,
      `?r=${encodeURIComponent(receipt)}&t=${Buffer.from(receipt).toString('base64')}`,
      `cut ${receipt.slice(0, 14)}… and ${receipt.slice(-12)}`,
    ]
    for (const receipt of receipts) {
      grown.learn(receipt, '$IPTS_WRITE_RECEIPT_')
      const whole = grown.all().map((secret) => ({ ...secret }))
      for (const text of receipts.flatMap(texts)) expect(redact(text, grown.all()), text).toBe(redact(text, whole))
    }
    expect(redact(texts(receipts[2]!)[0]!, grown.all())).toBe(
      '{"receipt":"$IPTS_WRITE_RECEIPT_3","key":"$IPTS_API_KEY"}',
    )
  })
})

describe('what redaction remembers', () => {
  // A list of its own for each test: a list's detector, and what it remembers, lives as long as the list.
  const listOf = (): Secret[] => [{ value: 'remembered-secret-0123456789', placeholder: '$IPTS_API_KEY' }]

  test('gives a text redacted again what it became the first time, remembering it once', () => {
    const list = listOf()
    const text = `{"key":"remembered-secret-0123456789","pad":"${'p'.repeat(600)}"}`
    const first = redact(text, list)
    expect(first).toBe(`{"key":"$IPTS_API_KEY","pad":"${'p'.repeat(600)}"}`)
    expect(rememberedChars(list)).toBe(text.length)
    expect(redact(text, list)).toBe(first)
    expect(rememberedChars(list), 'a text met again is not remembered twice').toBe(text.length)
    expect(redact('plain text', list)).toBe('plain text')
    expect(rememberedChars(list)).toBe(text.length + 'plain text'.length)
  })

  test('forgets what it remembered before a text would take it past its bound, and only then', () => {
    const list = listOf()
    const half = 'a'.repeat(RECENT_CHARS / 2)
    const rest = 'b'.repeat(RECENT_CHARS / 2)
    redact(half, list)
    redact(rest, list)
    expect(rememberedChars(list), 'exactly the bound is kept').toBe(RECENT_CHARS)
    redact('c', list)
    expect(rememberedChars(list), 'one character more forgets the others').toBe(1)
    expect(redact(half, list), 'a text forgotten is redacted again').toBe(half)
    expect(rememberedChars(list)).toBe(1 + half.length)
  })

  test('remembers nothing without secrets, nor for an empty text', () => {
    expect(redact('some text', [])).toBe('some text')
    expect(rememberedChars([])).toBe(0)
    const list = listOf()
    expect(redact('', list)).toBe('')
    expect(rememberedChars(list)).toBe(0)
  })
})
