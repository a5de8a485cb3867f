import { describe, expect, expectTypeOf, test } from 'vitest'
import { allCheckIds, allChecks, type Concern } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { relationRules } from '../../src/checks/relations.js'
import type { Check } from '../../src/checks/types.js'
import type { CheckId, RequirementId } from '../../src/contract/catalogue-ids.js'
import { loadRequirements } from '../../src/contract/requirements.js'
import { runConformance, type RunOptions, type Waiver } from '../../src/index.js'
import type { AllowanceName } from '../../src/reference/allowance-names.js'
import { allowances } from '../../src/reference/allowances/index.js'
import type { FaultName } from '../../src/reference/fault-names.js'
import { faults } from '../../src/reference/faults/index.js'
import type { Allowance, Fault } from '../../src/reference/types.js'
import { runAgainstReference } from '../support/run.js'

// npm run typecheck judges this file: each line after a @ts-expect-error must not compile, so a typo in a check ID, a
// requirement ID or a fault name is a tsc error wherever the catalogue's types stand.

describe('the catalogue types', () => {
  test("a fault's breaks and an allowance's skips and readings name checks of the catalogue", () => {
    const breaks: Fault['breaks'] = ['limits/quota-429', 'every-response/retry-after']
    // @ts-expect-error: no check has the ID limits/quota-492
    const typo: Fault['breaks'] = ['limits/quota-492']
    // @ts-expect-error: no check has the ID config/answers-object
    const skips: Allowance['skips'] = ['config/answers-object']
    expectTypeOf<'auth/missing-key'>().toExtend<CheckId>()
    expectTypeOf<'auth/missing-keys'>().not.toExtend<CheckId>()
    expect(allCheckIds()).toEqual(expect.arrayContaining([...breaks]))
    expect(allCheckIds()).not.toContain(typo[0])
    expect(allCheckIds()).not.toContain(skips![0])
  })

  test("a check's and an allowance's requirement is one of specs/requirements.yaml", () => {
    const permittedBy: Allowance['permittedBy'] = 'EP-LIST-QUERY'
    // @ts-expect-error: no requirement has the ID EP-LIST-QUERIES
    const typo: Check['requirement'] = 'EP-LIST-QUERIES'
    expectTypeOf<'LIM-QUOTA-429'>().toExtend<RequirementId>()
    const ids = loadRequirements().map((r) => r.id)
    expect(ids).toContain(permittedBy)
    expect(ids).not.toContain(typo)
  })

  test('a fault name and a concern are of the catalogue', () => {
    const name: FaultName = 'quota-retry-after-zero'
    // @ts-expect-error: no fault has the name quota-retry-after-0
    const typo: FaultName = 'quota-retry-after-0'
    // @ts-expect-error: no concern is named quota
    const concern: Concern = 'quota'
    expectTypeOf<'limits'>().toExtend<Concern>()
    // A self-test's run under faults (test/support/run.ts) takes fault names.
    type Reference = Parameters<typeof runAgainstReference>[0]
    expectTypeOf<{ faults: ['quota-retry-after-zero'] }>().toExtend<Reference>()
    expectTypeOf<{ faults: ['quota-retry-after-0'] }>().not.toExtend<Reference>()
    expect(faults.map((f) => f.name)).toContain(name)
    expect(faults.map((f) => f.name)).not.toContain(typo)
    expect(concern).toBe('quota')
  })

  test("the API's options name checks, faults and allowances of the catalogue, as the package's types declare them", () => {
    const options: RunOptions = {
      only: ['limits/quota-429'],
      waivers: [{ check: 'every-response/retry-after', reason: 'ticket 42' }],
      reference: { faults: ['quota-retry-after-zero'], allowances: ['always-gzip'] },
    }
    // @ts-expect-error: no check has the ID limits/quota-492
    const only: RunOptions['only'] = ['limits/quota-492']
    // @ts-expect-error: no check has the ID every-response/retry-afetr
    const waiver: Waiver = { check: 'every-response/retry-afetr', reason: 'ticket 42' }
    // @ts-expect-error: no fault has the name quota-retry-after-0
    const faultTypo: NonNullable<RunOptions['reference']>['faults'] = ['quota-retry-after-0']
    // @ts-expect-error: no allowance has the name always-gzipped
    const allowanceTypo: NonNullable<RunOptions['reference']>['allowances'] = ['always-gzipped']
    expectTypeOf<'always-gzip'>().toExtend<AllowanceName>()
    expectTypeOf<Parameters<typeof runConformance>[0]>().toEqualTypeOf<RunOptions | undefined>()
    expect(allCheckIds()).toEqual(expect.arrayContaining([...options.only!, options.waivers![0]!.check]))
    expect(allCheckIds()).not.toContain(only![0])
    expect(allCheckIds()).not.toContain(waiver.check)
    expect(faults.map((f) => f.name)).not.toContain(faultTypo![0])
    expect(allowances.map((a) => a.name)).toContain(options.reference!.allowances![0])
    expect(allowances.map((a) => a.name)).not.toContain(allowanceTypo![0])
  })
})

describe('the words of the catalogue', () => {
  test('each check, rule and relation has a title in words, and a rule that may apply to nothing says why in words', () => {
    for (const { id, title } of [...allChecks, ...exchangeRules, ...relationRules])
      expect(title, `${id}'s title`).toMatch(/^[a-zA-Z0-9"'].{15,}[^.\s]$/)
    for (const { id, notApplicable } of [...exchangeRules, ...relationRules])
      expect(notApplicable, `${id}'s reason for applying to nothing`).toMatch(/^no .{15,}[^.\s]$/)
  })
})
