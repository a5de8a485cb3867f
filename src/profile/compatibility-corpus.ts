import { fillPath, operations, type OperationId } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import { allowances } from '../reference/allowances/index.js'
import { buildReferenceData } from '../reference/data.js'
import { faults } from '../reference/faults/index.js'
import { routes } from '../reference/handlers.js'
import type { Behaviour, RefRequest, RefResponse } from '../reference/types.js'

/** A success body of an operation, and where it comes from: the reference itself, or one of its allowances or faults. */
export interface CorpusBody {
  operation: OperationId
  from: string
  body: unknown
}

/**
 * Success bodies whose verdict under the contract is known: those the contract accepts (the reference's own, and its
 * allowances' edits of them) and those it forbids (its faults' edits of them that specs/openapi.yaml rejects). A
 * published description compatible with the contract accepts the first and rejects the second.
 */
export function compatibilityCorpus(): Corpus {
  corpus ??= buildCorpus()
  return corpus
}

type Corpus = { accepted: CorpusBody[]; forbidden: CorpusBody[] }
/** Built once a process: the same for every run, but for the cursors' signatures, which no schema reads. */
let corpus: Corpus | undefined

function buildCorpus(): Corpus {
  const data = buildReferenceData()
  const requests = operations().flatMap((op) => {
    const params: Record<string, string> = { address: data.trader }
    if (op.id !== 'getIntentStatus') return [{ op, params, query: new URLSearchParams() }]
    return data.intents.map((intent) => ({ op, params: { hash: intent.hash }, query: new URLSearchParams({ receipt: intent.receipt }) }))
  })
  const accepted: CorpusBody[] = []
  const forbidden: CorpusBody[] = []
  for (const { op, params, query } of requests) {
    const request: RefRequest = { method: 'GET', path: fillPath(op.template, params), query, headers: {}, route: { operation: op.id, params } }
    const base = routes.find((route) => route.operation === op.id)!.handle(request, data, data.cursors)
    const original = JSON.stringify(base.body)
    const edited = (behaviour: Behaviour): unknown => {
      const response: RefResponse = { ...base, headers: {}, body: structuredClone(base.body) }
      try {
        behaviour.onResponse?.(response, request, data)
      } catch {
        return undefined
      }
      return response.status === 200 && JSON.stringify(response.body) !== original ? response.body : undefined
    }
    const valid = (body: unknown) => validateAgainst(op.successSchema, body).length === 0
    accepted.push({ operation: op.id, from: 'the reference', body: base.body })
    for (const allowance of allowances) {
      const body = edited(allowance)
      if (body !== undefined && valid(body)) accepted.push({ operation: op.id, from: `allowance ${allowance.name}`, body })
    }
    for (const fault of faults) {
      const body = edited(fault)
      if (body !== undefined && !valid(body)) forbidden.push({ operation: op.id, from: `fault ${fault.name}`, body })
    }
  }
  return { accepted, forbidden }
}
