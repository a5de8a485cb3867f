import { describe, expect, test } from 'vitest'
import { excerpt, mentionsSecret, redact, redactDeep, secretForms, secretsOf, type Secret } from '../src/http/secrets.js'

/**
 * The forms of a secret that redaction knows, each checked against an encoder other than the one in src/http/secrets.ts
 * (the platform's own where there is one), and the two ways a text is redacted (form by form, and one scan when a list
 * of secrets has many forms). npm run mutation judges src/http/secrets.ts by these tests and test/redaction.test.ts.
 */

/**
 * A value never used before in this process: the forms of a secret are cached by value, and under mutation (one module
 * graph for every run) a cached value would keep the forms an earlier run made. The suffix is one no encoder changes.
 */
let made = 0
const fresh = (value: string) => `${value}${Date.now().toString(36)}${process.pid}${made++}`

describe('secretForms', () => {
  test.each([
    ['as it is', (v: string) => v, ''],
    ['its UTF-8 bytes read as Latin-1', (v: string) => Buffer.from(v, 'utf8').toString('latin1'), ''],
    ['escaped in a JSON pointer', () => 'a b~1~0é+*!x', 'suffix'],
    ['by encodeURIComponent', (v: string) => encodeURIComponent(v), ''],
    ['by URLSearchParams', (v: string) => new URLSearchParams({ v }).toString().slice(2), ''],
    ['by encodeURIComponent with lower-case hex', (v: string) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), ''],
    ['by encodeURIComponent with + for a space', (v: string) => encodeURIComponent(v).replace(/%20/g, '+'), ''],
    ["by PHP's urlencode", () => 'a+b%2F%7E%C3%A9%2B%2A%21x', 'suffix'],
    ["by PHP's rawurlencode", () => 'a%20b%2F~%C3%A9%2B%2A%21x', 'suffix'],
    ["by Python's quote", () => 'a%20b/~%C3%A9%2B%2A%21x', 'suffix'],
    ['JSON-escaped', (v: string) => JSON.stringify(v).slice(1, -1), ''],
    ['JSON-escaped with \\/', () => 'a b\\/~é+*!x', 'suffix'],
    ['JSON-escaped with \\u and lower-case hex', () => 'a b/~\\u00e9+*!x', 'suffix'],
    ['JSON-escaped with \\u and upper-case hex', () => 'a b/~\\u00E9+*!x', 'suffix'],
    ['JSON-escaped with \\/ and \\u', () => 'a b\\/~\\u00e9+*!x', 'suffix'],
  ] as const)('holds the secret %s', (_, formOf, suffix) => {
    const value = fresh('a b/~é+*!x')
    const form = formOf(value) + (suffix ? value.slice('a b/~é+*!x'.length) : '')
    expect(secretForms(value)).toContain(form)
  })

  test('holds each form once, longest first', () => {
    const forms = secretForms(fresh('a b/~é+*!x'))
    expect(new Set(forms).size).toBe(forms.length)
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms)
  })

  test('holds no form of a letter or digit that an encoder would change', () => {
    const value = fresh('abcXYZ019._-')
    expect(secretForms(value).every((form) => form === value || form.length >= 8)).toBe(true)
  })

  test.each([0, 1, 2])('finds the secret in base64 and base64url after %i bytes before it', (offset) => {
    const secret = fresh('secret-key-0123456789?>~')
    const bytes = Buffer.concat([Buffer.alloc(offset, 0x41), Buffer.from(secret), Buffer.from('tail')])
    expect(mentionsSecret(bytes.toString('base64'), secret), 'base64').toBe(true)
    expect(mentionsSecret(bytes.toString('base64url'), secret), 'base64url').toBe(true)
    expect(redact(bytes.toString('base64'), [{ value: secret, placeholder: '$S' }])).toContain('$S')
  })

  test('leaves out base64 forms too short to tell from chance', () => {
    const forms = secretForms('abcd')
    // 'abcd' may be cached from an earlier run: its forms are judged only by their shape here.
    expect(forms.some((form) => form.length < 8 && form !== 'abcd' && /^[A-Za-z0-9+/_-]+$/.test(form)), forms.join(' ')).toBe(false)
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
    expect(secretsOf(settings)).toEqual([
      { value: 'k1', placeholder: '$IPTS_API_KEY' },
      { value: 'k2', placeholder: '$IPTS_RESTRICTED_API_KEY' },
      { value: 'r1', placeholder: '$IPTS_INTENT_RECEIPT' },
      { value: 'r2', placeholder: '$IPTS_SECOND_INTENT_RECEIPT' },
    ])
    expect(secretsOf({})).toEqual([])
    expect(secretsOf({ restrictedApiKey: 'k2' }).map((s) => s.placeholder)).toEqual(['$IPTS_RESTRICTED_API_KEY'])
  })
})
