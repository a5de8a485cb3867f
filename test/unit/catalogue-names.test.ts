import { describe, expect, test } from 'vitest'
import { exchangeRules } from '../../src/checks/every-response.js'
import { relationRules } from '../../src/checks/relations.js'
import { allChecks } from '../../src/checks/index.js'
import { missingInputReasons, needInputs } from '../../src/checks/needs.js'
import type { Need } from '../../src/checks/types.js'
import { flags } from '../../src/cli/options.js'
import { PROFILE_KEYS, WRITES_NOT_ASSESSABLE } from '../../src/profile/profile.js'

const cliFlags = flags.map((flag) => `--${flag.name}`)

describe('the names the catalogue gives', () => {
  test.each(exchangeRules.filter((rule) => rule.profile !== undefined).map((rule) => [rule.id, rule.profile]))(
    'the every-response rule %s holds responses to a key of the profile (%s)',
    (_id, key) => {
      expect(PROFILE_KEYS).toContain(key)
    },
  )

  test.each(allChecks.filter((check) => check.profile !== undefined).map((check) => [check.id, check.profile]))(
    'the check %s holds the target to a key of the profile (%s)',
    (_id, key) => {
      expect(PROFILE_KEYS).toContain(key)
    },
  )

  // The reason a judgement of recorded traffic gives when no exchange was its to judge: what was not seen, in words.
  test.each([
    ...allChecks.flatMap((check) => (check.recorded ? [[check.id, check.recorded.notApplicable]] : [])),
    ...[...exchangeRules, ...relationRules].map((rule) => [rule.id, rule.notApplicable]),
  ])('%s, with nothing to judge, says what it did not see: %s', (_id, notApplicable) => {
    expect(notApplicable).toMatch(/^no \S+ \S.{10,}[^.]$/)
  })

  test.each(Object.keys(missingInputReasons) as Need[])(
    'the input %s is given by flags of the CLI, each named in why a check skipped without it',
    (need) => {
      expect(needInputs[need].length).toBeGreaterThan(0)
      for (const flag of needInputs[need]) {
        expect(cliFlags).toContain(flag)
        expect(missingInputReasons[need]).toContain(flag)
      }
    },
  )
})

test('a write skipped names both what would assess it: the profile key and the flag', () => {
  expect(WRITES_NOT_ASSESSABLE).toBe(
    'not assessable without a deployment profile that states writes (--profile) and --allow-writes',
  )
})
