import { operation, type OperationId } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import type { Exchange } from '../http/exchange.js'
import { answersOf as statusesOf, inputsOrStandIns, servableOperations } from './operation-calls.js'
import type { Check, CheckContext } from './types.js'

const restrictedKey = (ctx: CheckContext) => ctx.settings.profile!.values.restrictedKey!

/** Calls each operation with the restricted key: the configured inputs where given, stand-ins elsewhere (a scope is refused before any lookup). */
function callRestricted(ctx: CheckContext, ids: readonly OperationId[]): Promise<Exchange[]> {
  return Promise.all(ids.map((id) => ctx.call(id, { ...inputsOrStandIns(ctx.settings, operation(id)), auth: 'restricted' })))
}

export const profileScopeChecks: readonly Check[] = [
  {
    id: 'profile/restricted-key-refused',
    requirement: 'AUTH-SCOPES',
    title: "every operation the profile's restrictedKey.refused lists answers the restricted key 403 with an error body",
    needs: ['restrictedApiKey'],
    profile: 'restrictedKey',
    async run(ctx) {
      const refused = restrictedKey(ctx).refused
      if (!refused) ctx.skip('the profile lists no refused operation (restrictedKey.refused)')
      const exchanges = await callRestricted(ctx, refused!)
      const wrong = exchanges.filter((e) => e.response?.status !== 403)
      if (wrong.length > 0) ctx.fail(`the restricted key was not refused with 403: ${statusesOf(wrong)}`, { exchange: wrong[0] })
      for (const exchange of exchanges) {
        const violations = exchange.response!.json === undefined ? undefined : validateAgainst('ErrorBody', exchange.response!.json)
        if (violations === undefined) ctx.fail(`${exchange.operation}: the 403 body is ${exchange.response!.jsonError}`, { exchange })
        else if (violations.length > 0) ctx.fail(`${exchange.operation}: the 403 carries no error body: ErrorBody${violations[0]!.instancePath} ${violations[0]!.message}`, { exchange, violations })
      }
    },
  },
  {
    id: 'profile/restricted-key-granted',
    requirement: 'AUTH-SCOPES',
    title: "every operation the profile's restrictedKey.granted lists answers the restricted key 200",
    needs: ['restrictedApiKey'],
    profile: 'restrictedKey',
    async run(ctx) {
      const granted = restrictedKey(ctx).granted
      if (!granted) ctx.skip('the profile lists no granted operation (restrictedKey.granted)')
      // A granted operation is served only on inputs that exist: those whose inputs were not given are not judged.
      const servable = new Set(servableOperations(ctx.settings).map((op) => op.id))
      const judged = granted!.filter((id) => servable.has(id))
      if (judged.length === 0) ctx.skip(`the inputs of ${granted!.join(', ')} were not given (--trader, --intent-hash)`)
      const exchanges = await Promise.all(judged.map((id) => ctx.call(id, { auth: 'restricted' })))
      const wrong = exchanges.filter((e) => e.response?.status !== 200)
      if (wrong.length > 0) ctx.fail(`the restricted key was not served 200: ${statusesOf(wrong)}`, { exchange: wrong[0] })
    },
  },
]
