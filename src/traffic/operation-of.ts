import { operations, type OperationId } from '../contract/operations.js'
import { writeOperationAt, type ProfileValues } from '../profile/profile.js'

/**
 * Where a recorded request went: an operation of the contract (a read, or a write the profile names), another path
 * under /v1, or outside /v1.
 */
export type Destination = { operation: string } | 'other-v1' | 'outside-v1'

let patterns: { id: OperationId; pattern: RegExp }[] | undefined

/**
 * What a path template of specs/openapi.yaml matches: the whole path, each {parameter} one segment that is not empty.
 */
export function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`)
}

/**
 * The operation a request addresses: a write of the profile's writes, else a GET matched against the path templates of
 * specs/openapi.yaml.
 */
export function destinationOf(method: string, url: string, profile?: ProfileValues): Destination {
  const path = new URL(url).pathname
  if (path !== '/v1' && !path.startsWith('/v1/')) return 'outside-v1'
  const write = writeOperationAt(profile, method, url)
  if (write) return { operation: write }
  patterns ??= operations().map((op) => ({ id: op.id, pattern: templatePattern(op.template) }))
  const found = method.toUpperCase() === 'GET' ? patterns.find(({ pattern }) => pattern.test(path)) : undefined
  return found ? { operation: found.id } : 'other-v1'
}
