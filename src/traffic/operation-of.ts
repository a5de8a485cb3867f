import { operations, type OperationId } from '../contract/operations.js'

/** Where a recorded request went: an operation of the contract, another path under /v1, or outside /v1. */
export type Destination = { operation: OperationId } | 'other-v1' | 'outside-v1'

let patterns: { id: OperationId; pattern: RegExp }[] | undefined

/** The operation a request addresses, matched against the path templates of specs/openapi.yaml (every operation is a GET). */
export function destinationOf(method: string, url: string): Destination {
  const path = new URL(url).pathname
  if (path !== '/v1' && !path.startsWith('/v1/')) return 'outside-v1'
  patterns ??= operations().map((op) => ({ id: op.id, pattern: new RegExp(`^${op.template.replace(/\{\w+\}/g, '[^/]+')}$`) }))
  const found = method.toUpperCase() === 'GET' ? patterns.find(({ pattern }) => pattern.test(path)) : undefined
  return found ? { operation: found.id } : 'other-v1'
}
