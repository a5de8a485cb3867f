import { describe, expect, test } from 'vitest'
import { excerpt, mentionsSecret, redact, redactDeep, secretsOf, type Secret } from '../src/http/secrets.js'

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
  test('names each key and receipt of the settings by its placeholder, and nothing that is not given', () => {
    const settings = { apiKey: 'k1', restrictedApiKey: 'k2', intent: { receipt: 'r1' }, secondIntent: { receipt: 'r2' } }
    const given = (secrets: Secret[]) => secrets.filter((s) => /^\$[A-Z_]+$/.test(s.placeholder))
    expect(given(secretsOf(settings))).toEqual([
      { value: 'k1', placeholder: '$IPTS_API_KEY' },
      { value: 'k2', placeholder: '$IPTS_RESTRICTED_API_KEY' },
      { value: 'r1', placeholder: '$IPTS_INTENT_RECEIPT' },
      { value: 'r2', placeholder: '$IPTS_SECOND_INTENT_RECEIPT' },
    ])
    expect(secretsOf({})).toEqual([])
    expect(given(secretsOf({ restrictedApiKey: 'k2' })).map((s) => s.placeholder)).toEqual(['$IPTS_RESTRICTED_API_KEY'])
  })
})
