import { deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { inflatedBytes, MAX_INFLATED } from '../../src/http/decoded-views.js'
import { redact, redactDeep } from '../../src/http/secrets.js'
import { fresh } from '../support/fresh-values.js'

/**
 * A zip bomb in a text to redact: 64 MiB of zeros, compressed, read no further than the inflation cap. Under 1 s, but
 * 27 s instrumented, which StrykerJS would spend again on every mutant of the redaction that survives: npm run mutation
 * judges the cap by test/unit/redaction-bounds.test.ts, where 40 streams of text are inflated to it together.
 */
describe('hostile input', () => {
  test('a zip bomb in a header value or a member is read no further than the inflation cap, and a secret beside it is still found', () => {
    const secret = fresh('bomb-neighbour-0123?~')
    const secrets = [{ value: secret, placeholder: '$S' }]
    // 64 MiB of zeros, gzipped and zlib-compressed to about 64 KB each, then base64 and hex as a server would echo
    // them.
    const zeros = Buffer.alloc(64 * 1024 * 1024)
    for (const bomb of [
      gzipSync(zeros).toString('base64'),
      deflateSync(zeros).toString('base64url'),
      gzipSync(zeros).subarray(0, 4096).toString('hex'),
    ]) {
      const before = inflatedBytes.total
      const redacted = redact(`session=${bomb}; key=${secret}`, secrets)
      expect(redacted).toContain('key=$S')
      expect(redacted).not.toContain(secret)
      expect(redactDeep({ cookie: bomb }, secrets)).toEqual({ cookie: bomb })
      // What the decoders inflated (counted by them, whether kept or given up at the cap): MAX_INFLATED for each of the
      // three readings (the text, what redaction made of it, the cookie), not the 64 MiB it would inflate to.
      expect(inflatedBytes.total - before).toBeGreaterThan(0)
      expect(inflatedBytes.total - before).toBeLessThanOrEqual(3 * MAX_INFLATED)
    }
  })
})
