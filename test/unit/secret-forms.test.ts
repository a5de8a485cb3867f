import { describe, expect, test } from 'vitest'
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import {
  excerpt,
  GrowingSecrets,
  mentionsSecret,
  PIECE,
  redact,
  redactDeep,
  secretsOf,
  telltaleLength,
  withoutSecretTail,
  type Secret,
} from '../../src/http/secrets.js'
import { fresh } from '../support/fresh-values.js'

/**
 * Unit tests of redaction beside test/unit/redaction.test.ts: a secret in base64 at each byte alignment,
 * mentionsSecret, the two ways a text is redacted (pattern by pattern, and one scan when a list of secrets has many
 * patterns), redactDeep, excerpt and secretsOf. npm run mutation judges src/http/secrets.ts by these tests and
 * test/unit/redaction.test.ts.
 */

describe('base64', () => {
  test.each([0, 1, 2])('finds the secret in base64 and base64url after %i bytes before it', (offset) => {
    const secret = fresh('secret-key-0123456789?>~')
    const bytes = Buffer.concat([Buffer.alloc(offset, 0x41), Buffer.from(secret), Buffer.from('tail')])
    expect(mentionsSecret(bytes.toString('base64'), secret), 'base64').toBe(true)
    expect(mentionsSecret(bytes.toString('base64url'), secret), 'base64url').toBe(true)
    expect(redact(bytes.toString('base64'), [{ value: secret, placeholder: '$S' }])).toContain('$S')
  })
})

describe('mentionsSecret', () => {
  test('finds a secret in any of its forms, and nothing for an empty one', () => {
    const value = fresh('a b/~é+*!x')
    expect(mentionsSecret(`?key=${encodeURIComponent(value)}&x=1`, value)).toBe(true)
    expect(mentionsSecret('nothing here', value)).toBe(false)
    expect(mentionsSecret('anything', '')).toBe(false)
  })
})

/** Secrets enough that their forms pass the bound above which a text is scanned once. */
const MANY: Secret[] = Array.from({ length: 40 }, (_, index) => ({
  value: fresh(`key/${index}-~é-secret-value`),
  placeholder: `$K${index}`,
}))

describe.each([
  ['few secrets (replaced form by form)', (secrets: Secret[]) => secrets],
  ['many secrets (one scan)', (secrets: Secret[]) => [...secrets, ...MANY]],
])('redact with %s', (_, withOthers) => {
  const short = fresh('abc-secret')
  const long = `${short}-longer`
  const secrets = withOthers([
    { value: short, placeholder: '$SHORT' },
    { value: long, placeholder: '$LONG' },
    { value: '', placeholder: '$EMPTY' },
  ])

  test('replaces a secret that contains another whole, by its own placeholder', () => {
    expect(redact(`x ${long} y ${short} z`, secrets)).toBe('x $LONG y $SHORT z')
  })

  test('names a secret that contains another once, as itself, when only the shorter one is readable as it is', () => {
    // The text as it is holds the shorter secret; its JSON view holds both, from the same start.
    expect(redact(`x ${short}\\u002dlonger y`, secrets)).toBe('x $LONG y')
  })

  test('replaces a secret at the very start and at the very end of the text, and in its encoded forms', () => {
    expect(redact(short, secrets)).toBe('$SHORT')
    expect(redact(`=${short}`, secrets)).toBe('=$SHORT')
    expect(redact(`${short}=`, secrets)).toBe('$SHORT=')
    expect(redact(`"${JSON.stringify(long).slice(1, -1).replace(/\//g, '\\/')}"`, secrets)).toBe('"$LONG"')
  })

  test('leaves a text without a secret as it is', () => {
    expect(redact('nothing to hide here', secrets)).toBe('nothing to hide here')
    expect(redact('', secrets)).toBe('')
    expect(redact('a', secrets)).toBe('a')
  })
})

describe('redact with many secrets', () => {
  test('replaces each of them, in each form', () => {
    const text = MANY.map((s, index) => (index % 2 === 0 ? s.value : encodeURIComponent(s.value))).join(' | ')
    expect(redact(text, MANY)).toBe(MANY.map((s) => s.placeholder).join(' | '))
  })

  test('finds a secret of four characters at the very end of the text, and a secret outside Latin script', () => {
    expect(redact('xx q9z7', [...MANY, { value: 'q9z7', placeholder: '$Q' }])).toBe('xx $Q')
    expect(redact('x 秘密秘密-key-0 y', [...MANY, { value: '秘密秘密-key-0', placeholder: '$CJK' }])).toBe('x $CJK y')
  })

  test('leaves text that holds none of them as it is', () => {
    // A list of its own: a list's detector is made by the first redaction with it, so this test is one that makes it.
    expect(redact('value undefined', [...MANY])).toBe('value undefined')
  })

  test('still redacts when a secret is a single character', () => {
    expect(redact('a-x-b', [...MANY, { value: 'x', placeholder: '$X' }])).toBe('a-$X-b')
    expect(redact(`${MANY[3]!.value}.`, MANY)).toBe('$K3.')
  })
})

describe('redactDeep', () => {
  test('redacts every string, member names too, and leaves other values as they are', () => {
    const secret = fresh('abc-secret')
    const secrets = [{ value: secret, placeholder: '$S' }]
    const data = { [secret]: [secret, 1, null, true, { inner: `x ${secret}` }], n: 2, u: undefined, z: null }
    expect(redactDeep(data, secrets)).toEqual({
      $S: ['$S', 1, null, true, { inner: 'x $S' }],
      n: 2,
      u: undefined,
      z: null,
    })
  })
})

describe('excerpt', () => {
  test('redacts before it cuts', () => {
    const secret = fresh('abc-secret')
    expect(excerpt(`1234${secret}5678`, 8, [{ value: secret, placeholder: '$S' }])).toBe('1234$S56')
    expect(excerpt('short', 100, [])).toBe('short')
  })
})

describe('secretsOf', () => {
  test('names each key and receipt of the settings by its placeholder, then their near misses, and nothing that is not given', () => {
    const settings = {
      apiKey: 'k1',
      restrictedApiKey: 'k2',
      intent: { receipt: 'r1' },
      secondIntent: { receipt: 'r2' },
    }
    expect(secretsOf(settings)).toEqual([
      { value: 'k1', placeholder: '$IPTS_API_KEY' },
      { value: 'k2', placeholder: '$IPTS_RESTRICTED_API_KEY' },
      { value: 'r1', placeholder: '$IPTS_INTENT_RECEIPT' },
      { value: 'r2', placeholder: '$IPTS_SECOND_INTENT_RECEIPT' },
    ])
    expect(secretsOf({})).toEqual([])
    // Values of 8 characters or more have near misses, each named after its secret: a header's none in full width.
    expect(secretsOf({ restrictedApiKey: 'key-0123' })).toEqual([
      { value: 'key-0123', placeholder: '$IPTS_RESTRICTED_API_KEY' },
      { value: 'KEY-0123', placeholder: '$IPTS_RESTRICTED_API_KEY~case-swapped' },
      { value: 'key-012', placeholder: '$IPTS_RESTRICTED_API_KEY~last-dropped' },
      { value: 'ey-0123', placeholder: '$IPTS_RESTRICTED_API_KEY~first-dropped' },
      { value: 'key-0124', placeholder: '$IPTS_RESTRICTED_API_KEY~last-changed' },
      { value: 'ley-0123', placeholder: '$IPTS_RESTRICTED_API_KEY~first-changed' },
    ])
    expect(secretsOf({ intent: { receipt: 'rcpt-012' } }).map((s) => s.placeholder)).toContain(
      '$IPTS_INTENT_RECEIPT~full-width',
    )
    expect(secretsOf({ secondIntent: { receipt: 'rcpt-012' } }).map((s) => s.placeholder)).toContain(
      '$IPTS_SECOND_INTENT_RECEIPT~full-width',
    )
  })
})

describe('pieces of a secret', () => {
  const secrets = [{ value: 'zz-0123456789-zz', placeholder: '$K' }]

  test('a piece of 8 characters found where the whole is not is replaced, overlapping pieces once', () => {
    expect(redact('got 0123456789-z back', secrets)).toBe('got [part of $K] back')
  })

  test('a piece is as long as its characters need to hold CHANCE_BITS: 12 hex digits, 14 decimal ones, 8 of base64', () => {
    const hex = [{ value: 'rcpt_0a1b2c3d4e5f6a7b8c9d', placeholder: '$R' }]
    expect(redact('x 0a1b2c3d4e5 y', hex), '11 hex digits: a hash holds them by chance').toBe('x 0a1b2c3d4e5 y')
    expect(redact('x 0a1b2c3d4e5f y', hex), '12').toBe('x [part of $R] y')
    const digits = [{ value: 'n-01234567890123456789', placeholder: '$N' }]
    expect(redact('x 0123456789012 y', digits), '13 decimal digits').toBe('x 0123456789012 y')
    expect(redact('x 01234567890123 y', digits), '14').toBe('x [part of $N] y')
    expect(redact('x Ab3dE5gH y', [{ value: 'k-Ab3dE5gH7j', placeholder: '$B' }]), '8 of base64').toBe(
      'x [part of $B] y',
    )
    expect(telltaleLength('0a1b2c3d4e5f6a7b', 0, PIECE)).toBe(12)
    expect(telltaleLength('Ab3dE5gH7j', 0, PIECE)).toBe(8)
    expect(telltaleLength('abcdefghijkl', 0, 1), 'small letters').toBe(10)
    expect(telltaleLength('0a1b2c3d4e5', 0, PIECE), 'the text ends first').toBeUndefined()
  })

  test('a piece of letters and separators alone, or of fewer than three distinct characters, is no sign of its secret', () => {
    expect(redact('restricted', [{ value: 'ipts_restricted_key', placeholder: '$K' }])).toBe('restricted')
    expect(redact('a 00000000 b', [{ value: 'x00000000x', placeholder: '$K' }])).toBe('a 00000000 b')
    expect(redact('a x01201201 b', [{ value: 'x01201201x', placeholder: '$K' }])).toBe('a [part of $K] b')
  })

  test('a piece is telling from its first character to its last, and the last piece of a secret is one', () => {
    expect(redact('x ab-012345 y', [{ value: 'ab-0123456789', placeholder: '$K' }])).toBe('x [part of $K] y')
    expect(redact('x 012345-ab y', [{ value: '9012345-abc', placeholder: '$K' }])).toBe('x [part of $K] y')
    expect(redact('x 3456789-z y', secrets)).toBe('x [part of $K] y')
    expect(redact('x 6789 y', secrets), 'shorter than a piece').toBe('x 6789 y')
    expect(redact('x 12345-abc y', [{ value: '9012345-abc', placeholder: '$K' }]), 'the last piece').toBe(
      'x [part of $K] y',
    )
    expect(
      redact('x 789-zz y', [{ value: 'zz-0123456789-zz', placeholder: '$K' }]),
      'the end of a secret, shorter than a piece',
    ).toBe('x 789-zz y')
  })

  test('a key with spaces is found with them as + (form encoding), whole and in pieces', () => {
    expect(redact('x k3y+with+space y', [{ value: 'k3y with space', placeholder: '$K' }])).toBe('x $K y')
    // A piece that holds a '+': an encoder dropped a character of the form-encoded key.
    expect(redact('got y+012345 back', [{ value: 'key 01234567 z', placeholder: '$K' }])).toBe('got [part of $K] back')
    // Every secret's whole forms come before any secret's pieces: a key form-encoded is named as itself, though it is
    // also a piece of a longer secret.
    const keyAndLonger = [
      { value: 'ab cd 12', placeholder: '$A' },
      { value: 'xx-ab+cd+12-xx', placeholder: '$B' },
    ]
    expect(redact('x ab+cd+12 y', keyAndLonger)).toBe('x $A y')
  })

  test("a secret's own decoded views are searched for from PIECE characters on", () => {
    // A secret holding what looks like escapes, decoded where the text is: its view of 8 characters is a sign of it.
    expect(redact('x abcdABCD y', [{ value: 'abcd%41%42%43%44', placeholder: '$K' }])).toBe('x $K y')
    expect(redact('x abcABCD y', [{ value: 'abc%41%42%43%44', placeholder: '$K' }]), 'a view of 7').toBe('x abcABCD y')
    expect(redact('x ABC y', [{ value: '%41%42%43', placeholder: '$K' }]), 'a view of 3').toBe('x ABC y')
  })

  test("in base64, a secret's view that holds another secret whole is named as itself, though both cover the same groups", () => {
    // 'zzkey-ABC-x1' in base64: the view 'key-ABC-x1' of $A and the secret 'key-ABC-x' of $C end in the same group of
    // 4.
    const secrets = [
      { value: 'key-%41BC-x1', placeholder: '$A' },
      { value: 'key-ABC-x', placeholder: '$C' },
    ]
    expect(redact(`x ${Buffer.from('zzkey-ABC-x1').toString('base64')} y`, secrets)).toBe('x $A y')
  })

  test('a whole secret next to a piece of another keeps both names', () => {
    expect(
      redact('aa-0123-aa987654321-z', [
        { value: 'aa-0123-aa', placeholder: '$A' },
        { value: 'zz-987654321-zz', placeholder: '$B' },
      ]),
    ).toBe('$A[part of $B]')
  })

  test('two whole secrets that overlap are both named', () => {
    expect(
      redact('aaaa-1111-bbbb', [
        { value: 'aaaa-1111', placeholder: '$A' },
        { value: '1111-bbbb', placeholder: '$B' },
      ]),
    ).toBe('$A$B')
  })

  test('a piece two secrets share is named after the longer one', () => {
    const shorter = { value: 'aa-0123456789abcdef', placeholder: '$SHORT' }
    const longer = { value: 'bbbbbb-0123456789abcdef-bbbbbb', placeholder: '$LONG' }
    expect(redact('x 0123456789abcdef y', [shorter, longer])).toBe('x [part of $LONG] y')
  })

  test('a whole secret within a piece of another is named by its own placeholder, once', () => {
    const inner = { value: 'in-4567-in', placeholder: '$IN' }
    const outer = { value: 'out-0123in-4567-in89-out', placeholder: '$OUT' }
    expect(redact('x 0123in-4567-in89 y', [inner, outer])).toBe('x $IN y')
  })
})

describe('a URL', () => {
  test('is redacted piece by piece: a path word a letters-only receipt holds stays readable', () => {
    const secrets = secretsOf({ intent: { receipt: 'receipt-of-intent-a' } })
    const url = `http://127.0.0.1:4000/v1/intents/0x${'ab'.repeat(32)}/status?receipt=receipt-of-intent-a&x=1`
    expect(redact(url, secrets)).toBe(
      `http://127.0.0.1:4000/v1/intents/0x${'ab'.repeat(32)}/status?receipt=$IPTS_INTENT_RECEIPT&x=1`,
    )
  })

  test('keeps what is not secret when a query value holds a secret in an encoding, and names it', () => {
    // 33 bytes: a base64 without padding.
    const secrets = secretsOf({ intent: { receipt: "rcpt 0123456789abcdef~!'(a)/+=éz" } })
    const encoded = encodeURIComponent(Buffer.from("rcpt 0123456789abcdef~!'(a)/+=éz").toString('base64'))
    expect(redact(`https://h.example/v1/intents/0x12/status?receipt=${encoded}&page=2#top`, secrets)).toBe(
      'https://h.example/v1/intents/0x12/status?receipt=$IPTS_INTENT_RECEIPT&page=2#top',
    )
  })

  test('whose secret spans its pieces is redacted as a whole', () => {
    const secrets = [{ value: 'ab/cd=ef&0123456789', placeholder: '$S' }]
    expect(redact('http://h/x/ab/cd=ef&0123456789/y', secrets)).toBe('http://h/x/$S/y')
  })
})

describe('mentionsSecret with several values', () => {
  test('finds any of them, leaves out empty ones, and finds nothing in a text without them', () => {
    const values = [fresh('first-value-0'), fresh('second-value-0')]
    expect(mentionsSecret(`x ${values[1]} y`, values)).toBe(true)
    expect(mentionsSecret(`x ${values[0]} y`, ['', ...values])).toBe(true)
    expect(mentionsSecret('x y', values)).toBe(false)
    expect(mentionsSecret('x y', ['', ''])).toBe(false)
  })
})

describe('excerpt and the tail of a cut text', () => {
  const secrets = [{ value: 'tail-secret-0123', placeholder: '$S' }]

  test('a text as long as the bound is kept whole, even when it ends as a secret begins', () => {
    expect(excerpt('ends with ta', 12, secrets)).toBe('ends with ta')
  })

  test('a cut text loses the end that begins a secret, the rest of which is gone', () => {
    expect(excerpt('kept, then tail-sec and more', 19, secrets)).toBe('kept, then ')
    expect(withoutSecretTail('kept, then tail-sec', secrets)).toBe('kept, then ')
    expect(withoutSecretTail('kept, then ta', secrets)).toBe('kept, then ')
    expect(withoutSecretTail('kept, then t', secrets), 'one character begins any text').toBe('kept, then t')
    expect(withoutSecretTail('kept, then tail-sec', []), 'no secrets').toBe('kept, then tail-sec')
  })

  test('a tail is the beginning of a whole secret, not of a piece; of any secret that begins with the same character', () => {
    expect(withoutSecretTail('kept 0123', [{ value: 'zz-0123456789-zz', placeholder: '$K' }])).toBe('kept 0123')
    const two = [
      { value: 'tail-secret-0123', placeholder: '$S' },
      { value: 'tx-9876543210', placeholder: '$T' },
    ]
    expect(withoutSecretTail('kept, then tai', two)).toBe('kept, then ')
    expect(withoutSecretTail('kept, then tx-9', two)).toBe('kept, then ')
  })

  test('a text that is the beginning of a secret and nothing else is cut to nothing; a whole secret at the end is no tail', () => {
    expect(withoutSecretTail('ta', [{ value: 'tail-secret-0123', placeholder: '$S' }])).toBe('')
    // A secret of two characters: its only beginning is one character, so only the whole is there, for redaction to
    // name.
    expect(withoutSecretTail('xx q9', [{ value: 'q9', placeholder: '$Q' }])).toBe('xx q9')
  })

  test('a beginning of a secret is a tail when at most 48 characters follow it (an escape the cut split), in every view', () => {
    const secrets = [{ value: 'tail-secret-0123', placeholder: '$S' }]
    expect(withoutSecretTail(`kept, then ta${'b'.repeat(48)}`, secrets)).toBe('kept, then ')
    expect(withoutSecretTail(`kept, then ta${'b'.repeat(49)}`, secrets)).toBe(`kept, then ta${'b'.repeat(49)}`)
    // In the percent view, what follows 'ta' is 48 units from 50 characters.
    expect(withoutSecretTail(`kept, then ta${'b'.repeat(47)}%41`, secrets)).toBe(`kept, then ta${'b'.repeat(47)}%41`)
  })

  test('a tail is looked for as far back as the longest secret reaches, 27 characters a unit (JSON-escaped twice)', () => {
    // Each unit a character of 3 UTF-8 bytes, each byte \u0025XX (.NET's JSON escape of a percent-escape) escaped
    // again.
    const secret = '€₤₹₩₽₿₺₴₫₪₮₱'
    const escaped = (text: string) =>
      JSON.stringify([...Buffer.from(text)].map((byte) => `\\u0025${byte.toString(16).toUpperCase()}`).join('')).slice(
        1,
        -1,
      )
    expect(escaped('€')).toBe('\\\\u0025E2\\\\u002582\\\\u0025AC')
    const text = `${'x'.repeat(400)}${escaped(secret.slice(0, 11))}`
    expect(withoutSecretTail(text, [{ value: secret, placeholder: '$S' }])).toBe('x'.repeat(400))
  })

  test("a tail at the end of the first of a long token's base64 readings is found: the readings are not in order", () => {
    // Letters without the bits 0x80, 0x20, 0x08 and 0x02: the token read at each of its four alignments is ASCII, so
    // all four readings are kept, one after another; each is longer than 48 characters, and only the first ends in
    // 'R~!('.
    const plain = `${'QUEUEDATAPDUETAQ'.repeat(4)}R~!(`
    const token = Buffer.from(plain).toString('base64')
    // Cut from the group of 4 that holds the first byte of 'R~!(' (byte 64, in group 21).
    expect(withoutSecretTail(`sent ${token}`, [{ value: 'R~!(x)é+/=zz', placeholder: '$R' }])).toBe(
      `sent ${token.slice(0, 84)}`,
    )
  })

  test('a tail is looked for as far back as the longest secret reaches, whichever secret is given first', () => {
    const long = { value: 'a-very-long-secret-value-0123456789', placeholder: '$LONG' }
    const short = { value: 'sh-0123', placeholder: '$SHORT' }
    const text = `${'x'.repeat(10)}a-very-long-secret-value-01`
    expect(withoutSecretTail(text, [short, long])).toBe('x'.repeat(10))
  })
})

describe('GrowingSecrets', () => {
  test('learns a value once, numbering the placeholders of each prefix in the order learned, in a new list each time', () => {
    const given: Secret[] = [{ value: 'k3y-given', placeholder: '$IPTS_API_KEY' }]
    const secrets = new GrowingSecrets(given)
    expect(secrets.all()).toBe(given)
    expect(secrets.learn('rcpt-one', '$IPTS_WRITE_RECEIPT_')).toBe('$IPTS_WRITE_RECEIPT_1')
    const afterOne = secrets.all()
    expect(afterOne).not.toBe(given)
    expect(given, 'the given list is not grown').toEqual([{ value: 'k3y-given', placeholder: '$IPTS_API_KEY' }])
    expect(secrets.learn('rcpt-one', '$IPTS_WRITE_RECEIPT_'), 'learned before').toBe('$IPTS_WRITE_RECEIPT_1')
    expect(secrets.all(), 'nothing learned, the same list').toBe(afterOne)
    expect(secrets.learn('k3y-given', '$IPTS_WRITE_RECEIPT_'), 'given').toBe('$IPTS_API_KEY')
    expect(secrets.learn('other-key', '$IPTS_OTHER_')).toBe('$IPTS_OTHER_1')
    expect(secrets.learn('rcpt-two', '$IPTS_WRITE_RECEIPT_')).toBe('$IPTS_WRITE_RECEIPT_2')
    expect(secrets.all()).toEqual([
      { value: 'k3y-given', placeholder: '$IPTS_API_KEY' },
      { value: 'rcpt-one', placeholder: '$IPTS_WRITE_RECEIPT_1' },
      { value: 'other-key', placeholder: '$IPTS_OTHER_1' },
      { value: 'rcpt-two', placeholder: '$IPTS_WRITE_RECEIPT_2' },
    ])
    expect(redact('got rcpt-two', secrets.all())).toBe('got $IPTS_WRITE_RECEIPT_2')
  })
})

describe('compressed forms', () => {
  const secret = fresh('sk_live_ab12cd34ef56')
  const secrets = [{ value: secret, placeholder: '$K' }]
  const json = JSON.stringify({ session: { user: 7, key: secret } })

  test.each([
    ['gzip in base64', () => gzipSync(json).toString('base64')],
    [
      'zlib in base64url (a session cookie)',
      () => `session=.${deflateSync(json).toString('base64url')}; Path=/; HttpOnly`,
    ],
    ['raw deflate in base64', () => deflateRawSync(json).toString('base64')],
    ['gzip in hex', () => gzipSync(json).toString('hex')],
    [
      'gzip in base64, wrapped at 76',
      () =>
        gzipSync(json + ' '.repeat(100) + json)
          .toString('base64')
          .replace(/.{76}/g, '$&\r\n'),
    ],
    ['gzip in a base64 JSON member', () => JSON.stringify({ blob: gzipSync(json).toString('base64') })],
    ['zlib as binary in a JSON string', () => JSON.stringify({ blob: deflateSync(json).toString('latin1') })],
  ])('%s: found, and replaced with the value that holds it', (_, encode) => {
    const text = encode()
    expect(mentionsSecret(text, secret)).toBe(true)
    expect(redact(text, secrets)).toContain('$K')
    expect(mentionsSecret(text.replace(/[A-Za-z0-9]/g, 'A'), secret), 'the same text without the secret').toBe(false)
  })

  test('a stream cut short is inflated as far as it goes', () => {
    // Without its last 12 bytes: the end of the deflate data and the gzip trailer.
    const cut = gzipSync(`${secret}${'x'.repeat(4000)}`)
      .subarray(0, -12)
      .toString('base64')
    expect(mentionsSecret(cut, secret)).toBe(true)
  })
})

describe('byte forms', () => {
  const secret = fresh('rcpt_0a1b2c3d~é')
  const secrets = [{ value: secret, placeholder: '$R' }]
  const utf8 = Buffer.from(secret, 'utf8')
  const utf16be = Buffer.from(secret, 'utf16le').swap16()

  test.each([
    ['hex, lower case', () => `digest ${utf8.toString('hex')} end`],
    ['hex, upper case', () => `digest ${utf8.toString('hex').toUpperCase()} end`],
    ['hex after an odd digit', () => `0x1${utf8.toString('hex')}`],
    ['hex with colons', () => [...utf8].map((b) => b.toString(16).padStart(2, '0')).join(':')],
    ['\\x escapes', () => [...utf8].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')],
    ['a JSON array of bytes', () => JSON.stringify({ bytes: [...utf8] })],
    ['a JSON array of signed bytes (Java)', () => JSON.stringify([...utf8].map((b) => (b > 127 ? b - 256 : b)))],
    ['a Node Buffer as JSON', () => JSON.stringify(utf8)],
    ['UTF-16LE bytes in a JSON string', () => JSON.stringify({ v: Buffer.from(secret, 'utf16le').toString('latin1') })],
    ['UTF-16BE bytes in a JSON string', () => JSON.stringify({ v: utf16be.toString('latin1') })],
    ['UTF-16LE in hex', () => Buffer.from(secret, 'utf16le').toString('hex')],
    ['UTF-16BE in base64', () => utf16be.toString('base64')],
    [
      'UTF-16LE in base64 after one byte',
      () => Buffer.concat([Buffer.from('x'), Buffer.from(secret, 'utf16le')]).toString('base64'),
    ],
  ])('%s: found and replaced', (_, encode) => {
    const text = encode()
    expect(mentionsSecret(text, secret)).toBe(true)
    expect(redact(text, secrets)).toContain('$R')
    expect(redact(text, secrets)).not.toContain(utf8.toString('hex').slice(0, 16))
  })

  test('a hash, an address and numbers are no bytes of a secret', () => {
    const text = JSON.stringify({
      hash: `0x${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}`,
      sizes: [1, 2, 3, 4, 5, 6, 7, 8, 9],
    })
    expect(redact(text, secrets)).toBe(text)
  })
})

describe('partial forms', () => {
  const key = { value: 'sk_live_ab12cd34ef56gh78', placeholder: '$K' }

  test.each([
    ['sk_live_ab12****', '[part of $K]****'],
    ['key sk_live_ab12 ******** refused', 'key [part of $K] ******** refused'],
    ['sk_l…gh78', '[part of $K]…[part of $K]'],
    ['ab12********', 'ab12********'],
    ['sk_live_ab12xxxxxxxxxxxx', '[part of $K]xxxxxxxxxxxx'],
    ['****gh78', '****[part of $K]'],
  ])('a beginning or end of the secret next to a mask, 4 characters or more: %s', (text, redacted) => {
    expect(redact(text, [key])).toBe(redacted)
  })

  test.each([
    ['**', '*'],
    ['••', '•'],
    ['●●', '●'],
    ['···', '··'],
    ['…', ''],
    ['...', '..'],
    ['xxxx', 'xxx'],
    ['XXXX', 'XXX'],
    ['###', '##'],
  ])('%j is a mask before the end of a secret, at its shortest, and %j is none', (mask, shorter) => {
    expect(redact(`${mask}gh78`, [key])).toBe(`${mask}[part of $K]`)
    expect(redact(`${shorter}gh78`, [key])).toBe(`${shorter}gh78`)
  })

  test('4 characters of a secret elsewhere are no disclosure', () => {
    expect(redact('sk_l and gh78 and ab12', [key])).toBe('sk_l and gh78 and ab12')
  })

  test('the receipt check judges a masked piece a disclosure from 4 characters past the format prefix', () => {
    expect(mentionsSecret('receipt rcpt_****', 'rcpt_0a1b2c3d4e5f')).toBe(false)
    expect(mentionsSecret('receipt …e5f', 'rcpt_0a1b2c3d4e5f'), 'three characters').toBe(false)
    expect(mentionsSecret('receipt rcpt_0a1b****', 'rcpt_0a1b2c3d4e5f')).toBe(true)
    expect(mentionsSecret('receipt rcpt_abcd****', 'rcpt_abcdef0123')).toBe(true)
    expect(mentionsSecret('receipt …4e5f', 'rcpt_0a1b2c3d4e5f')).toBe(true)
  })

  test('once a piece of a secret is found, no stretch of it stays in clear, letters alone included', () => {
    const secret = { value: 'abcdefghij-0123456789-klmnopqrst', placeholder: '$S' }
    // The digits are a telling piece; the letters, split into other members, are not telling on their own.
    const text = JSON.stringify({ a: 'abcdefghij', b: '-0123456789-', c: 'klmnopqrst' })
    expect(redact(text, [secret])).toBe('{"a":"[part of $S]","b":"[part of $S]","c":"[part of $S]"}')
    expect(
      redact(JSON.stringify({ a: 'abcdefghij', c: 'klmnopqrst' }), [secret]),
      'letters alone, nothing telling found',
    ).toBe('{"a":"abcdefghij","c":"klmnopqrst"}')
  })

  test('a secret split in two members, and over wrapped lines, is found', () => {
    const text = JSON.stringify({ keyStart: key.value.slice(0, 9), keyEnd: key.value.slice(9) })
    expect(redact(text, [key])).not.toMatch(/ab12|cd34|sk_live/)
    expect(mentionsSecret(`token: ${key.value.slice(0, 12)}\r\n  ${key.value.slice(12)}`, key.value)).toBe(true)
    expect(redact(`token: ${key.value.slice(0, 12)}\r\n  ${key.value.slice(12)}`, [key])).toBe('token: $K')
  })
})

describe("a secret's own views", () => {
  // What a secret's bytes stand for is not its text: a secret that reads as hex, an array of bytes, base64 or gzip is
  // not looked for as the text those bytes make, which any report could hold by chance.
  const text = 'not-a-secret-at-all, only words'
  const bytes = Buffer.from(text)
  test.each([
    ['hex', bytes.toString('hex')],
    ['an array of bytes', `[${[...bytes].join(',')}]`],
    ['base64', bytes.toString('base64')],
    ['gzip read as Latin-1', gzipSync(bytes).toString('latin1')],
  ])('of one that reads as %s leave the text its bytes make alone, and redact the secret', (_, value) => {
    const secrets = [{ value, placeholder: '$IPTS_RECEIPT' }]
    expect(redact(`the report says ${text}`, secrets)).toBe(`the report says ${text}`)
    expect(redact(`the report says ${value}`, secrets)).toBe('the report says $IPTS_RECEIPT')
  })
})
