import { describe, expect, test } from 'vitest'
import { withSecretsRedacted } from '../../src/runner/session.js'

const KEY = 'front-end-error-key-0001'
const secrets = () => [{ value: KEY, placeholder: '$IPTS_API_KEY' }]

describe("a front end's error, on its way to the console", () => {
  test('an Error thrown with a key in its message reaches the caller with the placeholder instead', async () => {
    const thrown = new Error(`cannot read https://x/v1/vault?key=${KEY} (ECONNRESET)`)
    await expect(
      withSecretsRedacted(secrets, async () => {
        throw thrown
      }),
    ).rejects.toBe(thrown)
    expect(thrown.message).toBe('cannot read https://x/v1/vault?key=$IPTS_API_KEY (ECONNRESET)')
  })

  test('the secrets are asked for when the error comes, so that those learned by then are redacted too', async () => {
    const learned: { value: string; placeholder: string }[] = []
    const thrown = new Error(`a receipt ${KEY}`)
    await expect(
      withSecretsRedacted(
        () => learned,
        async () => {
          learned.push({ value: KEY, placeholder: '$IPTS_INTENT_RECEIPT' })
          throw thrown
        },
      ),
    ).rejects.toBe(thrown)
    expect(thrown.message).toBe('a receipt $IPTS_INTENT_RECEIPT')
  })

  test('what is not an Error is thrown on as it is; what the work returns is returned', async () => {
    await expect(
      withSecretsRedacted(secrets, async () => {
        throw 'a bare string'
      }),
    ).rejects.toBe('a bare string')
    await expect(withSecretsRedacted(secrets, async () => 7)).resolves.toBe(7)
  })
})
