import { operations } from '../contract/operations.js'
import type { OperationCoverage } from '../core/report.js'

/**
 * Per operation, the responses seen by status and how many were judged: plain data, so that a vitest worker can hand it
 * on.
 */
export type ResponsesSeen = Record<string, Omit<OperationCoverage, 'operation'>>

/** The status key of a request that got no response (a transport error, a timeout). */
export const NO_RESPONSE = 'no response'

/** Counts one response (or none: status undefined) of an operation, judged or not. */
export function countResponse(
  seen: ResponsesSeen,
  operation: string,
  status: number | undefined,
  judged: boolean,
): void {
  const entry = (seen[operation] ??= { statuses: {}, judged: 0 })
  const key = status === undefined ? NO_RESPONSE : String(status)
  entry.statuses[key] = (entry.statuses[key] ?? 0) + 1
  if (judged) entry.judged++
}

/** Adds what another part of the run saw (a check, a vitest worker's test) to the run's counts. */
export function addResponses(into: ResponsesSeen, from: ResponsesSeen | undefined): void {
  for (const [operation, { statuses, judged }] of Object.entries(from ?? {})) {
    const entry = (into[operation] ??= { statuses: {}, judged: 0 })
    for (const [status, count] of Object.entries(statuses))
      entry.statuses[status] = (entry.statuses[status] ?? 0) + count
    entry.judged += judged
  }
}

/**
 * Every operation of the contract, those no response came from included (a report shows what was never exercised),
 * then any other seen (a profile's writes). Statuses keep the order of integer keys: ascending, `no response` last.
 */
export function operationCoverage(seen: ResponsesSeen): OperationCoverage[] {
  const reads = operations().map((op) => op.id as string)
  const others = Object.keys(seen)
    .filter((operation) => !reads.includes(operation))
    .sort()
  return [...reads, ...others].map((operation) => ({
    operation,
    statuses: seen[operation]?.statuses ?? {},
    judged: seen[operation]?.judged ?? 0,
  }))
}
