import { operation, type OperationId } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'
import { statusOf } from './operation-calls.js'
import type { Breach } from './property.js'

/** Small verdicts on one exchange, shared by the generated-input checks: a Breach, or undefined when it holds. */

function bodyProblem(schema: string, exchange: Exchange): string | undefined {
  const response = exchange.response!
  if (response.json === undefined) return `the body is ${response.jsonError}`
  const first = validateAgainst(schema, response.json)[0]
  return first && `${schema}${first.instancePath} ${first.message} (${first.keyword})`
}

/** A 4xx (one the operation declares, where it declares its statuses) with an error body. */
export function refusedWithErrorBody(exchange: Exchange): Breach | undefined {
  const status = exchange.response?.status
  if (status === undefined) return { problem: statusOf(exchange), exchange }
  const declared = exchange.operation && operation(exchange.operation as OperationId).declaredStatuses
  if (status < 400 || status > 499) return { problem: `status ${status}, expected a 4xx`, exchange }
  if (declared && !declared.includes(status))
    return { problem: `status ${status} is a 4xx the operation does not declare (${declared.join(', ')})`, exchange }
  const problem = bodyProblem('ErrorBody', exchange)
  return problem ? { problem: `status ${status} without an error body: ${problem}`, exchange } : undefined
}

/**
 * 200 with a body valid against the operation's success schema, or 404 with an error body; or 403 with an error body,
 * the answer of a key restricted to some of the resources (key policy and restrictions are not shown).
 */
export function foundOrNotFound(exchange: Exchange): Breach | undefined {
  const status = exchange.response?.status
  if (status === undefined) return { problem: statusOf(exchange), exchange }
  if (status !== 200 && status !== 404 && status !== 403)
    return { problem: `status ${status}, expected 200, 404 or 403 (a restricted key)`, exchange }
  const schema = status === 200 ? operation(exchange.operation as OperationId).successSchema : 'ErrorBody'
  const problem = bodyProblem(schema, exchange)
  return problem ? { problem: `status ${status} with an invalid body: ${problem}`, exchange } : undefined
}

/**
 * No access granted: any answer but a 2xx. Which refusal (a declared 4xx, not a 5xx) is a reading the fixed-input
 * check intents/refusals-declared-4xx holds; the error body is every-response/error-body's.
 */
export function grantsNoAccess(exchange: Exchange): Breach | undefined {
  const status = exchange.response?.status
  if (status === undefined) return { problem: statusOf(exchange), exchange }
  return status >= 200 && status <= 299 ? { problem: `status ${status}: access was granted`, exchange } : undefined
}

/** A status with an error body, exactly this status. */
export function answeredWithError(exchange: Exchange, expected: number): Breach | undefined {
  const status = exchange.response?.status
  if (status === undefined) return { problem: statusOf(exchange), exchange }
  if (status !== expected) return { problem: `status ${status}, expected ${expected}`, exchange }
  const problem = bodyProblem('ErrorBody', exchange)
  return problem ? { problem: `status ${status} without an error body: ${problem}`, exchange } : undefined
}
