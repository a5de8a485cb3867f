import { describe, expect, test } from 'vitest'
import { excerpt, mentionsSecret, redact, redactDeep, secretsOf, withoutSecretTail, type Secret } from '../src/http/secrets.js'

/**
 * Unit tests of redaction beside test/redaction.test.ts: a secret in base64 at each byte alignment, mentionsSecret, the
 * two ways a text is redacted (pattern by pattern, and one scan when a list of secrets has many patterns), redactDeep,
 * excerpt and secretsOf. npm run mutation judges src/http/secrets.ts by these tests and test/redaction.test.ts.
 */

/**
 * A value never used before in this process: redaction remembers short texts with their redaction, and a graph kept
 * from one mutant's run to the next would answer from what an earlier run computed. The suffix is one no encoder changes.
 */
let made = 0
const fresh = (value: string) => `${value}${Date.now().toString(36)}${process.pid}${made++}`

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
const MANY: Secret[] = Array.from({ length: 40 }, (_, index) => ({ value: fresh(`key/${index}-~é-secret-value`), placeholder: `$K${index}` }))

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
    expect(redact('value undefined', MANY)).toBe('value undefined')
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
    expect(redactDeep(data, secrets)).toEqual({ $S: ['$S', 1, null, true, { inner: 'x $S' }], n: 2, u: undefined, z: null })
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
    const settings = { apiKey: 'k1', restrictedApiKey: 'k2', intent: { receipt: 'r1' }, secondIntent: { receipt: 'r2' } }
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
    expect(secretsOf({ intent: { receipt: 'rcpt-012' } }).map((s) => s.placeholder)).toContain('$IPTS_INTENT_RECEIPT~full-width')
    expect(secretsOf({ secondIntent: { receipt: 'rcpt-012' } }).map((s) => s.placeholder)).toContain('$IPTS_SECOND_INTENT_RECEIPT~full-width')
  })
})

describe('pieces of a secret', () => {
  const secrets = [{ value: 'zz-0123456789-zz', placeholder: '$K' }]

  test('a piece of 8 characters found where the whole is not is replaced, overlapping pieces once', () => {
    expect(redact('got 0123456789 back', secrets)).toBe('got [part of $K] back')
  })

  test('a piece of letters and separators alone, or of fewer than three distinct characters, is no sign of its secret', () => {
    expect(redact('restricted', [{ value: 'ipts_restricted_key', placeholder: '$K' }])).toBe('restricted')
    expect(redact('a 00000000 b', [{ value: 'x00000000x', placeholder: '$K' }])).toBe('a 00000000 b')
    expect(redact('a 01201201 b', [{ value: 'x01201201x', placeholder: '$K' }])).toBe('a [part of $K] b')
  })

  test('a piece is telling from its first character to its last, and the last piece of a secret is one', () => {
    expect(redact('x ab012345 y', [{ value: 'ab0123456789', placeholder: '$K' }])).toBe('x [part of $K] y')
    expect(redact('x 012345ab y', [{ value: '9012345abc', placeholder: '$K' }])).toBe('x [part of $K] y')
    expect(redact('x 23456789 y', secrets)).toBe('x [part of $K] y')
    expect(redact('x 6789 y', secrets), 'shorter than a piece').toBe('x 6789 y')
  })

  test('a whole secret next to a piece of another keeps both names', () => {
    expect(redact('aa-0123-aa98765432', [{ value: 'aa-0123-aa', placeholder: '$A' }, { value: 'zz-987654321-zz', placeholder: '$B' }])).toBe('$A[part of $B]')
  })

  test('two whole secrets that overlap are both named', () => {
    expect(redact('aaaa-1111-bbbb', [{ value: 'aaaa-1111', placeholder: '$A' }, { value: '1111-bbbb', placeholder: '$B' }])).toBe('$A$B')
  })

  test('a piece two secrets share is named after the longer one', () => {
    const shorter = { value: 'aa-0123456789', placeholder: '$SHORT' }
    const longer = { value: 'bbbbbb-0123456789-bbbbbb', placeholder: '$LONG' }
    expect(redact('x 0123456789 y', [shorter, longer])).toBe('x [part of $LONG] y')
  })

  test('a whole secret within a piece of another is named by its own placeholder, once', () => {
    const inner = { value: 'in-4567-in', placeholder: '$IN' }
    const outer = { value: 'out-0123in-4567-in89-out', placeholder: '$OUT' }
    expect(redact('x 0123in-4567-in89 y', [inner, outer])).toBe('x $IN y')
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
    const two = [{ value: 'tail-secret-0123', placeholder: '$S' }, { value: 'tx-9876543210', placeholder: '$T' }]
    expect(withoutSecretTail('kept, then tai', two)).toBe('kept, then ')
    expect(withoutSecretTail('kept, then tx-9', two)).toBe('kept, then ')
  })

  test('a tail is looked for as far back as the longest secret reaches, whichever secret is given first', () => {
    const long = { value: 'a-very-long-secret-value-0123456789', placeholder: '$LONG' }
    const short = { value: 'sh-0123', placeholder: '$SHORT' }
    const text = `${'x'.repeat(10)}a-very-long-secret-value-01`
    expect(withoutSecretTail(text, [short, long])).toBe('x'.repeat(10))
  })
})
