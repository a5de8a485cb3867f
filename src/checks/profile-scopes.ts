import { operation, type OperationId } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'
import {
  answersOf as statusesOf,
  inputsOrStandIns,
  receiptRefusedForKey,
  servableOperations,
  statusOf,
} from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

/** A check of the operations the profile's restrictedKey lists as refused or granted; skipped when it lists none. */
function restrictedKeyCheck(
  kind: 'refused' | 'granted',
  title: string,
  judge: (ctx: CheckContext, ids: readonly OperationId[]) => Promise<void>,
): Check {
  return {
    id: `profile/restricted-key-${kind}`,
    requirement: 'AUTH-SCOPES',
    title,
    needs: ['restrictedApiKey'],
    profile: 'restrictedKey',
    async run(ctx) {
      const ids = ctx.settings.profile!.values.restrictedKey![kind]
      if (!ids) ctx.skip(`the profile lists no ${kind} operation (restrictedKey.${kind})`)
      await judge(ctx, ids!)
    },
  }
}

/** Why a refusal is not a 403 with an error body, or undefined when it is. */
export function refusalProblem(exchange: Exchange): string | undefined {
  const { response } = exchange
  if (response?.status !== 403) return `${exchange.operation} answered ${statusOf(exchange)}, not 403`
  if (response.json === undefined) return `${exchange.operation}: the 403 body is ${response.jsonError}`
  const [violation] = validateAgainst('ErrorBody', response.json)
  return (
    violation &&
    `${exchange.operation}: the 403 carries no error body: ErrorBody${violation.instancePath} ${violation.message}`
  )
}

export const profileScopeChecks: readonly Check[] = [
  restrictedKeyCheck(
    'refused',
    "every operation the profile's restrictedKey.refused lists answers the restricted key 403 with an error body",
    async (ctx, ids) => {
      // The configured inputs where given, stand-ins elsewhere: a scope is refused before any lookup.
      const exchanges = await Promise.all(
        ids.map((id) => ctx.call(id, { ...inputsOrStandIns(ctx.settings, operation(id)), auth: 'restricted' })),
      )
      for (const exchange of exchanges) {
        const problem = refusalProblem(exchange)
        if (problem) ctx.fail(`the restricted key was not refused as the profile says: ${problem}`, { exchange })
      }
    },
  ),
  restrictedKeyCheck(
    'granted',
    "every operation the profile's restrictedKey.granted lists answers the restricted key 200",
    async (ctx, ids) => {
      // A granted operation is served only on inputs that exist: those whose inputs were not given are not judged.
      const servable = new Set(servableOperations(ctx.settings).map((op) => op.id))
      const judged = ids.filter((id) => servable.has(id))
      if (judged.length === 0) ctx.skip(`the inputs of ${ids.join(', ')} were not given (--trader, --intent-hash)`)
      const exchanges = await Promise.all(judged.map((id) => ctx.call(id, { auth: 'restricted' })))
      // The scope is the profile's; the intent's receipt was given for the API key's intent, and its refusal with
      // another key is not shown to be wrong.
      const wrong = exchanges.filter((e) => e.response?.status !== 200 && !receiptRefusedForKey(e))
      if (wrong.length === 0 && exchanges.every(receiptRefusedForKey))
        ctx.skip(
          `the restricted key was refused the intent's receipt (${statusesOf(exchanges)}): given for the API key's intent, it may be bound to that key, so the scope is not shown`,
        )
      if (wrong.length > 0)
        ctx.fail(`the restricted key was not served 200: ${statusesOf(wrong)}`, { exchange: wrong[0] })
    },
  ),
]
