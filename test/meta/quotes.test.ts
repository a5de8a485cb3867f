import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadRequirements } from '../../src/contract/requirements.js'
import { packageRoot, specPath } from '../../src/core/package-root.js'

/** The contract the repository carries and tests against. */
const CONTRACT = specPath('contract.md')
/**
 * Where the contract is published beside a checkout of this project (in CI and in the project's worktrees); absent in a
 * clone elsewhere.
 */
const PUBLISHED_CONTRACT = join(packageRoot, '..', 'shared', 'contract', 'trading-service-rest-interface.md')

/**
 * Text as a reader sees it: Markdown's table-cell escape `\|` read as `|` (a quote holds the character, not its
 * escape), and every run of whitespace, line breaks included, as one space. Nothing else is changed: backticks,
 * case and punctuation must match as written.
 */
function asRead(text: string): string {
  return text.replace(/\\\|/g, '|').replace(/\s+/g, ' ').trim()
}

describe('the quotes of specs/requirements.yaml', () => {
  const requirements = loadRequirements()

  test('are read from the contract the repository carries, a byte-identical copy of the published one', ({ skip }) => {
    if (!existsSync(PUBLISHED_CONTRACT)) {
      console.log(`quotes: no published contract at ${PUBLISHED_CONTRACT}; specs/contract.md is not compared with it`)
      return skip(`no published contract beside the repository (${PUBLISHED_CONTRACT})`)
    }
    expect(
      readFileSync(CONTRACT).equals(readFileSync(PUBLISHED_CONTRACT)),
      `specs/contract.md differs from ${PUBLISHED_CONTRACT}: copy it again`,
    ).toBe(true)
  })

  test.each(requirements.map((r) => [r.id, r] as const))('%s quotes the contract verbatim', (_, requirement) => {
    const contract = asRead(readFileSync(CONTRACT, 'utf8'))
    expect(requirement.quote.length, `${requirement.id} has no quote`).toBeGreaterThan(0)
    for (const quote of requirement.quote)
      expect(contract.includes(asRead(quote)), `${requirement.id}: not in the contract: ${quote}`).toBe(true)
  })

  test('cover every MUST, and a MUST is never a reading', () => {
    const must = requirements.filter((r) => r.level === 'MUST')
    expect(must.filter((r) => r.quote.length === 0).map((r) => r.id)).toEqual([])
    expect(must.filter((r) => r.inferred).map((r) => r.id)).toEqual([])
  })

  test('mark every SHOULD as inferred', () => {
    expect(requirements.filter((r) => r.level === 'SHOULD' && !r.inferred).map((r) => r.id)).toEqual([])
  })
})

describe('asRead', () => {
  test('reads the table escape as a bar and folds whitespace', () => {
    expect(asRead('| a \\| b |\n|  c\t|')).toBe('| a | b | | c |')
  })
  test('keeps backticks and case', () => {
    expect(asRead('`X-API-Key`')).not.toBe(asRead('X-API-Key'))
    expect(asRead('Missing')).not.toBe(asRead('missing'))
  })
})
