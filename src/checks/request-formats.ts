import { schemaPattern } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'

/**
 * The statuses of a validation failure in the contract's status table (400 Validation failure, 422 Request validation
 * failed).
 */
export const VALIDATION_STATUSES: readonly number[] = [400, 422]

const HASH = schemaPattern('Hash')
const REQUEST_ID = schemaPattern('RequestId')
const RECEIPT_MAX_LENGTH = 512
const INTENT_PATH = /\/v1\/intents\/([^/]*)$/

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

function headerOf(exchange: Exchange, name: string): string | undefined {
  return Object.entries(exchange.request.headers).find(([key]) => key.toLowerCase() === name)?.[1]
}

/**
 * Which format the contract states for a request the request breaks, in words; undefined where it breaks none of them.
 * Only stated formats count: the Hash path parameter, the receipt's presence and 1 to 512 characters, X-Request-ID's
 * pattern. The address format is not shown, so no address makes a request malformed here.
 */
export function brokenFormat(exchange: Exchange): string | undefined {
  return (
    (exchange.operation === 'getIntentStatus' ? brokenIntentInput(new URL(exchange.request.url)) : undefined) ??
    brokenRequestId(exchange)
  )
}

function brokenIntentInput(url: URL): string | undefined {
  const hash = decoded(INTENT_PATH.exec(url.pathname)?.[1] ?? '')
  if (hash === undefined || !HASH.test(hash)) return 'its hash is not in Hash format (0x and 64 hex digits)'
  const receipt = url.searchParams.get('receipt')
  if (receipt === null) return 'it has no receipt, which is required'
  if (receipt.length < 1 || receipt.length > RECEIPT_MAX_LENGTH)
    return `its receipt has ${receipt.length} characters, outside 1 to ${RECEIPT_MAX_LENGTH}`
  return undefined
}

function brokenRequestId(exchange: Exchange): string | undefined {
  const requestId = headerOf(exchange, 'x-request-id')
  return requestId !== undefined && !REQUEST_ID.test(requestId)
    ? 'its X-Request-ID is not 8 to 128 letters, digits, dots, underscores, colons or hyphens'
    : undefined
}
