import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { allCheckIds, allChecks, checksByConcern } from '../../src/checks/index.js'
import { exchangeRules } from '../../src/checks/every-response.js'
import { relationRules } from '../../src/checks/relations.js'
import { loadRequirements } from '../../src/contract/requirements.js'
import { packageRoot, specPath } from '../../src/core/package-root.js'
import { generatedFiles } from '../../src/docs/catalogue-files.js'
import { allowances } from '../../src/reference/allowances/index.js'
import { faults } from '../../src/reference/faults/index.js'

const requirements = loadRequirements()
const requirementIds = new Set(requirements.map((r) => r.id))
const cited = [
  ...[...allChecks, ...exchangeRules].map(({ id, requirement, profile }) => ({ id, requirement, profile })),
  ...relationRules.map(({ id, requirement }) => ({ id, requirement, profile: undefined })),
]

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
    const titles = [...allChecks, ...exchangeRules, ...relationRules].map((c) => c.title)
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

  test('each have a suite file under suites/, and every suite file is a concern', () => {
    expect(readdirSync(join(packageRoot, 'suites')).sort()).toEqual(
      Object.keys(checksByConcern)
        .map((concern) => `${concern}.test.ts`)
        .sort(),
    )
  })
})

/**
 * What every check passes through: the registries, the generators, the engine and the adapters, the whole-suite
 * self-tests. Adding a check edits none of them (docs/development.md, Adding a check): its ID is written in its check
 * file, its faults and allowances, its self-tests and the files npm run docs generates.
 */
const GLUE = [
  'src/checks/index.ts',
  'src/reference/faults/index.ts',
  'src/reference/allowances/index.ts',
  'src/docs',
  'src/engine',
  'src/runner',
  'src/vitest',
  'suites',
  'test/meta/catalogue.test.ts',
  'test/runs/faults.test.ts',
  'test/runs/allowances.test.ts',
  'test/checks/each-check.test.ts',
]

/**
 * The one list of check IDs the glue keeps, in test/each-check.test.ts: the checks that pass when the target stops
 * answering (of what an answer must not carry, or of the description the profile names, which is still served).
 */
const withoutPassingWithoutAnswers = (text: string) =>
  text.replace(/^const PASSES_WITHOUT_ANSWERS = new Set\(\[[^\]]*\]\)$/m, '')

function filesUnder(path: string): string[] {
  const full = join(packageRoot, path)
  return statSync(full).isDirectory() ? readdirSync(full).flatMap((name) => filesUnder(join(path, name))) : [path]
}

describe('the files generated from the catalogue (npm run docs)', () => {
  test('the glue names no check: a new check edits only its check file, its fault and its self-test', () => {
    const ids = allCheckIds()
    const named = GLUE.flatMap(filesUnder).flatMap((path) => {
      const text = withoutPassingWithoutAnswers(readFileSync(join(packageRoot, path), 'utf8'))
      return ids.filter((id) => text.includes(`'${id}'`)).map((id) => `${path}: ${id}`)
    })
    expect(named, 'check IDs written in the glue').toEqual([])
  })

  test.each(generatedFiles.map((file) => [file.path, file] as const))('%s is fresh', async (path, file) => {
    expect(readFileSync(join(packageRoot, path), 'utf8'), `${path} is stale: run npm run docs`).toBe(
      await file.render(),
    )
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
