import { writeFileSync } from 'node:fs'
import { fillPath, operations } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import { specPath } from '../core/package-root.js'
import {
  COMPATIBILITY_CORPUS_FILE,
  type CompatibilityCorpus,
  type CorpusBody,
} from '../profile/compatibility-corpus.js'
import { allowances } from './allowances/index.js'
import { buildReferenceData } from './data.js'
import { faults } from './faults/index.js'
import { routes } from './handlers.js'
import type { Behaviour, RefRequest, RefResponse } from './types.js'

/**
 * A body whose string cursor is replaced by a fixed one: a behaviour may issue cursors of its own at random (a stateful
 * token), and a cursor's value is opaque to every schema, which reads only its type. So the file is the same on every
 * build.
 */
function withSteadyCursor(body: unknown): unknown {
  const record = body as { cursor?: unknown } | null
  return record !== null && typeof record === 'object' && typeof record.cursor === 'string'
    ? { ...record, cursor: 'a-cursor-issued-at-random' }
    : body
}

/** The seed of the reference data the corpus is built from, so that the file is the same on every build. */
const CORPUS_SEED = 1

/**
 * Writes specs/compatibility-corpus.json (npm run corpus); a self-test keeps it current with the faults and allowances.
 */
export function writeCompatibilityCorpus(): void {
  writeFileSync(specPath(COMPATIBILITY_CORPUS_FILE), `${JSON.stringify(buildCompatibilityCorpus(), null, 1)}\n`)
}

/**
 * Success bodies whose verdict under the contract is known: those the contract accepts (the reference's own, and its
 * allowances' edits of them) and those it forbids (its faults' edits of them that specs/openapi.yaml rejects). A
 * published description compatible with the contract accepts the first and rejects the second.
 */
export function buildCompatibilityCorpus(): CompatibilityCorpus {
  const data = buildReferenceData({ seed: CORPUS_SEED })
  const requests = operations().flatMap((op) => {
    const params: Record<string, string> = { address: data.trader }
    if (op.id !== 'getIntentStatus') return [{ op, params, query: new URLSearchParams() }]
    return data.intents.map((intent) => ({
      op,
      params: { hash: intent.hash },
      query: new URLSearchParams({ receipt: intent.receipt }),
    }))
  })
  const accepted: CorpusBody[] = []
  const forbidden: CorpusBody[] = []
  for (const { op, params, query } of requests) {
    const request: RefRequest = {
      method: 'GET',
      path: fillPath(op.template, params),
      query,
      headers: {},
      route: { operation: op.id, params },
    }
    const base = routes.find((route) => route.operation === op.id)!.handle(request, data, data.cursors)
    const original = JSON.stringify(base.body)
    const edited = (behaviour: Behaviour): unknown => {
      const response: RefResponse = { ...base, headers: {}, body: structuredClone(base.body) }
      try {
        behaviour.onResponse?.(response, request, data)
      } catch {
        return undefined
      }
      return response.status === 200 && JSON.stringify(response.body) !== original
        ? withSteadyCursor(response.body)
        : undefined
    }
    const valid = (body: unknown) => validateAgainst(op.successSchema, body).length === 0
    accepted.push({ operation: op.id, from: 'the reference', body: base.body })
    for (const allowance of allowances) {
      const body = edited(allowance)
      if (body !== undefined && valid(body))
        accepted.push({ operation: op.id, from: `allowance ${allowance.name}`, body })
    }
    for (const fault of faults) {
      const body = edited(fault)
      if (body !== undefined && !valid(body)) forbidden.push({ operation: op.id, from: `fault ${fault.name}`, body })
    }
  }
  return { accepted, forbidden }
}
