import { describe, expect, test } from 'vitest'
import { compatibilityCorpus } from '../../src/profile/compatibility-corpus.js'
import { buildCompatibilityCorpus } from '../../src/reference/compatibility-corpus.js'

describe('specs/compatibility-corpus.json', () => {
  test('holds the bodies the reference, its allowances and its faults give now (npm run corpus writes it)', () => {
    const built = buildCompatibilityCorpus()
    const read = compatibilityCorpus()
    expect(read.accepted.length, 'the corpus has bodies the contract accepts').toBeGreaterThan(0)
    expect(read.forbidden.length, 'the corpus has bodies the contract forbids').toBeGreaterThan(0)
    expect(read, 'specs/compatibility-corpus.json is stale: run npm run corpus').toEqual(
      JSON.parse(JSON.stringify(built)),
    )
  })
})
