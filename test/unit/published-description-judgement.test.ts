import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { specPath } from '../../src/core/package-root.js'
import { compatibilityCorpus } from '../../src/profile/compatibility-corpus.js'
import { judgeDescription } from '../../src/profile/judge-description.js'
import { fresh } from '../support/fresh-values.js'

/**
 * The judgement of a deployment's published description (src/profile/judge-description.ts): the contract's own
 * document, and that document changed in one place each, its findings named for the source given.
 */

type Document = {
  openapi: string
  info: { version?: string }
  paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>
  components: Record<string, Record<string, unknown>>
}

const CONTRACT = parse(readFileSync(specPath('openapi.yaml'), 'utf8')) as Document
const SOURCE = 'https://example.test/openapi.json'

/** The contract's document with one change. */
function changed(edit: (doc: Document) => void): Document {
  const doc = structuredClone(CONTRACT)
  edit(doc)
  return doc
}

const judged = (doc: unknown, source = SOURCE) => judgeDescription(source, doc)

/**
 * Makes a document one not judged before in this process (an extension member of its own): the judgements kept from
 * an earlier run of the tests, under StrykerJS in one module graph, would answer for it.
 */
const unjudged = (doc: Document) => ((doc as unknown as Record<string, unknown>)['x-run'] = fresh('run-'))

describe('a published description', () => {
  test("the contract's own has no finding, judged on the whole corpus", async () => {
    const { accepted, forbidden } = compatibilityCorpus()
    expect(await judged(CONTRACT)).toEqual({
      document: [],
      compatibility: [],
      corpus: { accepted: accepted.length, forbidden: forbidden.length },
    })
  })

  test('another interface version is named with the version it declares, or none', async () => {
    expect((await judged(changed((doc) => (doc.info.version = '1.1.0')))).document).toEqual([
      `${SOURCE} declares info.version "1.1.0", not "1.0.0"`,
    ])
    const { document } = await judged(changed((doc) => delete doc.info.version))
    expect(document.at(-1)).toBe(`${SOURCE} declares info.version undefined, not "1.0.0"`)
    expect(document[0]).toMatch(
      new RegExp(
        `^${SOURCE.replaceAll('.', '\\.')} is not a valid OpenAPI document \\(@seriousme/openapi-schema-validator\\): `,
      ),
    )
  })

  test("the validator's problems, each with where and its keyword, or its one line", async () => {
    expect((await judged(changed((doc) => (doc.openapi = '3.0.3')))).document).toEqual([
      `${SOURCE} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ` +
        '/ must NOT have additional properties (additionalProperties)',
      `${SOURCE} declares openapi "3.0.3", not "3.1.0"`,
    ])
    const untitled = await judged(changed((doc) => ((doc.info as Record<string, unknown>).title = 7)))
    expect(untitled.document).toEqual([
      `${SOURCE} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ` +
        '/info/title must be string (type)',
    ])
    const twice = await judged(
      changed((doc) => {
        doc.components.schemas!.Twice1 = { $id: 'twice' }
        doc.components.schemas!.Twice2 = { $id: 'twice' }
      }),
    )
    expect(twice).toMatchObject({
      document: [
        `${SOURCE} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ` +
          "$id : 'twice' defined more than once at #/components/schemas/Twice2",
      ],
      compatibility: [
        `${SOURCE}: its schemas cannot be read as JSON Schema 2020-12: ` +
          'reference "twice" resolves to more than one schema',
      ],
    })
  })

  test("the validator's first three problems are named, joined by semicolons", async () => {
    // Without paths, components and webhooks the document fails each branch of an anyOf, then the anyOf: four errors.
    const bare = await judged(
      changed((doc) => {
        delete (doc as Partial<Document>).paths
        delete (doc as Partial<Document>).components
        unjudged(doc)
      }),
    )
    expect(bare.document[0]).toBe(
      `${SOURCE} is not a valid OpenAPI document (@seriousme/openapi-schema-validator): ` +
        "/ must have required property 'paths' (required); " +
        "/ must have required property 'components' (required); " +
        "/ must have required property 'webhooks' (required)",
    )
  })

  test('an operation without its path, or without a GET at it, is not described', async () => {
    const findings = await judged(
      changed((doc) => {
        delete doc.paths['/v1/config']
        doc.paths['/v1/vault'] = { post: doc.paths['/v1/vault']!.get! }
      }),
    )
    expect(findings.document).toEqual([
      `${SOURCE} does not describe GET /v1/vault (getVault), GET /v1/config (getConfig)`,
    ])
    expect(findings.compatibility).toEqual([
      `${SOURCE} gives no 200 JSON body schema for GET /v1/vault`,
      `${SOURCE} gives no 200 JSON body schema for GET /v1/config`,
    ])
  })

  test('a path parameter of another name is the same path', async () => {
    const findings = await judged(
      changed((doc) => {
        doc.paths['/v1/intents/{orderHash}'] = doc.paths['/v1/intents/{hash}']!
        delete doc.paths['/v1/intents/{hash}']
      }),
    )
    expect(findings.document.filter((problem) => problem.includes('does not describe'))).toEqual([])
    expect(findings.compatibility).toEqual([])
  })

  test('a path of the same segments without its parameter is another path', async () => {
    const findings = await judged(
      changed((doc) => {
        doc.paths['/v1/intents/'] = doc.paths['/v1/intents/{hash}']!
        delete doc.paths['/v1/intents/{hash}']
      }),
    )
    expect(findings.document).toContain(`${SOURCE} does not describe GET /v1/intents/{hash} (getIntentStatus)`)
  })

  test('a parameter name with ~ and / is escaped in the pointer to its schema', async () => {
    const findings = await judged(
      changed((doc) => {
        doc.paths['/v1/intents/{order~/hash}'] = doc.paths['/v1/intents/{hash}']!
        delete doc.paths['/v1/intents/{hash}']
      }),
    )
    expect(findings.compatibility).toEqual([])
  })

  test.each([
    ['a GET without responses', (ok: Record<string, unknown>) => ({ ...ok, responses: undefined })],
    ['a 200 without content', (ok: Record<string, unknown>) => ({ ...ok, responses: { '200': { description: 'x' } } })],
    [
      'a 200 by a reference to nothing',
      (ok: Record<string, unknown>) => ({ ...ok, responses: { '200': { $ref: '#/components/nothing/here' } } }),
    ],
  ])('%s gives no schema to judge with', async (_, edit) => {
    const findings = await judged(
      changed((doc) => {
        const vault = doc.paths['/v1/vault']!
        vault.get = edit(vault.get as unknown as Record<string, unknown>) as unknown as typeof vault.get
      }),
    )
    expect(findings.compatibility).toEqual([`${SOURCE} gives no 200 JSON body schema for GET /v1/vault`])
  })

  test('a 200 response given by reference is followed, its name unescaped', async () => {
    const byReference = changed((doc) => {
      const vault = doc.paths['/v1/vault']!.get!.responses
      doc.components.responses = { ...doc.components.responses, 'Vault~ok/200': vault['200'] }
      vault['200'] = { $ref: '#/components/responses/Vault~0ok~1200' }
    })
    // The validator refuses such a component name; the judgement against the corpus still finds the schema.
    expect((await judged(byReference)).compatibility).toEqual([])
  })

  test('a 200 response without a JSON body has no schema to judge with', async () => {
    const findings = await judged(
      changed((doc) => {
        const ok = doc.paths['/v1/markets']!.get!.responses['200']!
        ok.content = { 'text/plain': { schema: { type: 'string' } } }
      }),
    )
    expect(findings.compatibility).toEqual([`${SOURCE} gives no 200 JSON body schema for GET /v1/markets`])
  })

  test('a narrower schema rejects bodies the contract accepts; a wider one accepts bodies it forbids', async () => {
    const narrower = await judged(
      changed((doc) => {
        ;(doc.components.schemas!.Vault as { required: string[] }).required.push('cumulativeDepositedTokens')
      }),
    )
    expect(narrower.compatibility.length).toBeGreaterThan(0)
    for (const problem of narrower.compatibility)
      expect(problem).toMatch(
        /^https:\/\/example\.test\/openapi\.json rejects a getVault body the contract accepts \(.+\)$/,
      )
    const wider = await judged(
      changed((doc) => {
        doc.components.schemas!.VaultResponse = {}
      }),
    )
    expect(wider.compatibility.length).toBeGreaterThan(0)
    // Each forbidden body of the vault is named by where it comes from, with its JSON's first 300 characters.
    const forbidden = compatibilityCorpus().forbidden.filter((entry) => entry.operation === 'getVault')
    expect(wider.compatibility).toEqual(
      forbidden.map(
        (entry) =>
          `${SOURCE} accepts a getVault body the contract forbids (${entry.from}): ` +
          JSON.stringify(entry.body).slice(0, 300),
      ),
    )
    expect(forbidden.some((entry) => JSON.stringify(entry.body).length > 300)).toBe(true)
  })

  test('a schema that does not compile is named with its operation', async () => {
    const findings = await judged(
      changed((doc) => {
        ;(doc.components.schemas!.Market as { type: string }).type = 'nothing'
      }),
    )
    expect(findings.compatibility).toContainEqual(
      expect.stringMatching(
        /^https:\/\/example\.test\/openapi\.json: the 200 body schema of GET \/v1\/markets does not compile: /,
      ),
    )
  })

  test('its schemas are judged though the document itself would fail JSON Schema meta-validation', async () => {
    // The document is no schema: only its body schemas are compiled, so a root keyword of the wrong type is not read.
    const findings = await judged(
      changed((doc) => {
        ;(doc as unknown as Record<string, unknown>).deprecated = 'not a boolean'
        unjudged(doc)
      }),
    )
    expect(findings.compatibility).toEqual([])
  })

  test('findings kept from an earlier judgement are named for the source given now', async () => {
    const doc = changed((d) => (d.info.version = '2.0.0'))
    await judged(doc, 'first.json')
    expect((await judged(doc, 'second.json')).document).toEqual([
      'second.json declares info.version "2.0.0", not "1.0.0"',
    ])
  })
})
