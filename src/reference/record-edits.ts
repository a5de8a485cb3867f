import { createHash } from 'node:crypto'
import type { OperationId } from '../contract/operations.js'
import type { ReferenceData } from './data.js'
import type { Allowance, Fault, RefRequest, RefResponse } from './types.js'

/** Edits of success bodies, for the faults and allowances of the shapes, envelope and config concerns. */
export type Body = Record<string, any>

/**
 * The 200 body of the operation, cloned so that an edit never reaches the reference data; undefined for any other
 * response.
 */
export function successBody(response: RefResponse, request: RefRequest, operation: OperationId): Body | undefined {
  const body = response.body
  if (request.route?.operation !== operation || response.status !== 200 || body === null || typeof body !== 'object')
    return undefined
  response.body = structuredClone(body)
  return response.body as Body
}

/** The records of each operation's success body: the objects whose members the contract lists. */
export const recordsOf: Readonly<Record<OperationId, (body: Body) => Body[]>> = {
  getIntentStatus: (body) => [body],
  getTraderPnl: (body) => [body.data.funding, body.data.positions, body.data.settlements],
  getVault: (body) => [body.data],
  listMarkets: (body) => body.data,
  listTraderBalances: (body) => body.data,
  getConfig: (body) => [body],
}

type Edit = (body: Body, data: ReferenceData) => void

/** A fault that edits the success body of one operation. */
export function bodyFault(
  name: string,
  description: string,
  breaks: Fault['breaks'],
  operation: OperationId,
  edit: Edit,
): Fault {
  return {
    name,
    description,
    breaks,
    onResponse: (response, request, data) => applyEdit(response, request, data, operation, edit),
  }
}

/** An allowance that edits the success body of one or more operations. */
export function bodyAllowance(
  name: string,
  description: string,
  permittedBy: Allowance['permittedBy'],
  operations: readonly OperationId[],
  edit: Edit,
): Allowance {
  return {
    name,
    description,
    permittedBy,
    onResponse: (response, request, data) => operations.forEach((op) => applyEdit(response, request, data, op, edit)),
  }
}

function applyEdit(
  response: RefResponse,
  request: RefRequest,
  data: ReferenceData,
  operation: OperationId,
  edit: Edit,
): void {
  const body = successBody(response, request, operation)
  if (body) edit(body, data)
}

/** A hash with its hex digits in upper case (the 0x prefix stays lower case). */
export const upperCaseHex = (hash: string) => `0x${hash.slice(2).toUpperCase()}`

/**
 * An address in mixed case, by the rule of EIP-55 with SHA-256 in place of keccak-256, which node:crypto does not
 * offer: checksum-shaped, not a valid EIP-55 checksum, and valid as an Address, whose pattern allows either case.
 */
export function mixedCaseAddress(address: string): string {
  const hex = address.slice(2).toLowerCase()
  const digest = createHash('sha256').update(hex).digest('hex')
  return `0x${[...hex].map((char, i) => (parseInt(digest[i]!, 16) >= 8 ? char.toUpperCase() : char)).join('')}`
}
