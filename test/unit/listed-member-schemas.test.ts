import { describe, expect, test } from 'vitest'
import { itemSchema, memberSchema, resolved } from '../../src/http/listed-material.js'

/**
 * Which schema describes a member or an item of a body, at the edges of the keywords it reads: a member named in a
 * branch of allOf, oneOf or anyOf, or by additionalProperties when that is a schema. The contract uses allOf alone and
 * no additionalProperties schema today; a contract that uses the others must keep the members they name.
 */

const described = { type: 'string', description: 'the member' }
const items = { type: 'integer', description: 'the item' }

describe('memberSchema', () => {
  test.each(['allOf', 'oneOf', 'anyOf'])("a member named in a branch of %s is that branch's schema of it", (key) => {
    expect(memberSchema({ [key]: [{ type: 'object' }, { properties: { a: described } }] }, 'a')).toBe(described)
  })

  test('a member no branch names is unknown', () => {
    const unknown = memberSchema({}, 'a')
    expect(typeof unknown).toBe('symbol')
    expect(memberSchema({ oneOf: [{ properties: { b: described } }] }, 'a')).toBe(unknown)
  })

  test('a member the object does not name is described by additionalProperties where that is a schema', () => {
    expect(memberSchema({ properties: { b: items }, additionalProperties: described }, 'a')).toBe(described)
    expect(memberSchema({ properties: { b: items }, additionalProperties: false }, 'a')).toBe(memberSchema({}, 'a'))
    expect(memberSchema({ properties: { b: items }, additionalProperties: true }, 'a')).toBe(memberSchema({}, 'a'))
  })
})

describe('itemSchema', () => {
  test.each(['allOf', 'oneOf', 'anyOf'])('the items of a branch of %s describe the items', (key) => {
    expect(itemSchema({ [key]: [{ type: 'array' }, { items }] })).toBe(items)
  })

  test('a schema that names no items describes none', () => {
    expect(itemSchema({ oneOf: [{ type: 'array' }] })).toBeUndefined()
  })
})

describe('resolved: a reference through others', () => {
  /** Schemas S0 … S{count - 1}, each a reference to the next, the last a reference to `end`. */
  const chain = (count: number, end: Record<string, unknown>) =>
    Object.fromEntries([
      ...Array.from({ length: count }, (_, i) => [`S${i}`, { $ref: `#/components/schemas/S${i + 1}` }]),
      [`S${count}`, end],
    ])

  test('is followed through 16 references, and no 17th', () => {
    const end = { type: 'object', description: 'the end' }
    // The schema given is the first reference: to S0; S0 … S14 are 15 more.
    expect(resolved({ $ref: '#/components/schemas/S0' }, chain(15, end))).toBe(end)
    const seventeen = chain(16, end)
    expect(resolved({ $ref: '#/components/schemas/S0' }, seventeen)).toBe(seventeen.S15)
  })

  test('a loop of references ends, at a reference not followed', () => {
    const loop = { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } }
    expect(resolved({ $ref: '#/components/schemas/A' }, loop)).toBe(loop.B)
  })
})
