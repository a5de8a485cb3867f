import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { allCheckIds, allChecks, checksByConcern } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { loadRequirements } from '../../src/contract/requirements.js'
import { specPath } from '../../src/core/package-root.js'
import { allowances } from '../../src/reference/allowances/index.js'
import { faults } from '../../src/reference/faults/index.js'

const requirements = loadRequirements()
const requirementIds = new Set(requirements.map((r) => r.id))
const cited = [...allChecks, ...exchangeRules].map(({ id, requirement, profile }) => ({ id, requirement, profile }))

describe('the requirements catalogue', () => {
  test('validates against its schema', () => {
    const schema = JSON.parse(readFileSync(specPath('requirements.schema.json'), 'utf8'))
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema)
    const catalogue = parse(readFileSync(specPath('requirements.yaml'), 'utf8'))
    expect(validate(catalogue), JSON.stringify(validate.errors)).toBe(true)
  })

  test('has unique IDs', () => {
    expect(requirementIds.size).toBe(requirements.length)
  })
})

describe('the checks', () => {
  test('have unique IDs and titles', () => {
    const ids = allCheckIds()
    expect(new Set(ids).size, 'duplicate check ID').toBe(ids.length)
    const titles = [...allChecks.map((c) => c.title), ...exchangeRules.map((r) => r.title)]
    expect(new Set(titles).size, 'duplicate check title').toBe(titles.length)
  })

  test('are named after their concern', () => {
    for (const [concern, checks] of Object.entries(checksByConcern)) {
      for (const check of checks)
        expect(check.id.startsWith(`${concern}/`), `${check.id} is not under ${concern}/`).toBe(true)
    }
  })

  test('cite requirements that exist and are observable, or assessable against the profile key they hold the target to', () => {
    for (const { id, requirement, profile } of cited) {
      expect(requirementIds.has(requirement), `${id} cites unknown requirement ${requirement}`).toBe(true)
      const cites = requirements.find((r) => r.id === requirement)!
      if (cites.observable) continue
      expect(
        cites.profile,
        `${id} cites ${requirement}, which is not observable and no profile key assesses`,
      ).toBeDefined()
      expect(profile, `${id} cites ${requirement}, assessed against the profile key ${cites.profile}`).toBe(
        cites.profile,
      )
    }
  })

  test('each have a fault of the reference server that makes them fail', () => {
    const broken = new Set(faults.flatMap((f) => f.breaks))
    const unproven = allCheckIds().filter((id) => !broken.has(id))
    expect(unproven, 'checks that no fault makes fail').toEqual([])
  })

  test('each have a suite file under suites/', () => {
    for (const concern of Object.keys(checksByConcern)) {
      expect(
        () => readFileSync(new URL(`../../suites/${concern}.test.ts`, import.meta.url)),
        `suites/${concern}.test.ts is missing`,
      ).not.toThrow()
    }
  })
})

describe('faults and allowances', () => {
  test('have unique names', () => {
    const names = [...faults, ...allowances].map((b) => b.name)
    expect(new Set(names).size).toBe(names.length)
  })

  test('faults name only checks that exist', () => {
    const ids = new Set(allCheckIds())
    for (const fault of faults) {
      expect(fault.breaks.length, `${fault.name} breaks nothing`).toBeGreaterThan(0)
      for (const id of fault.breaks) expect(ids.has(id), `${fault.name} names unknown check ${id}`).toBe(true)
    }
  })

  test('allowances name only checks that exist among those they skip', () => {
    const ids = new Set(allCheckIds())
    for (const allowance of allowances)
      for (const id of allowance.skips ?? [])
        expect(ids.has(id), `${allowance.name} names unknown check ${id}`).toBe(true)
  })

  test('allowances name as readings they fail only SHOULD checks that exist', () => {
    const levelOf = new Map(loadRequirements().map((r) => [r.id, r.level]))
    const levels = new Map([...allChecks, ...exchangeRules].map((check) => [check.id, levelOf.get(check.requirement)]))
    for (const allowance of allowances) {
      for (const id of allowance.readings ?? [])
        expect(levels.get(id), `${allowance.name} names ${id} as a reading it fails`).toBe('SHOULD')
    }
  })

  test('allowances cite requirements that exist', () => {
    for (const allowance of allowances)
      expect(requirementIds.has(allowance.permittedBy), `${allowance.name} cites ${allowance.permittedBy}`).toBe(true)
  })
})
