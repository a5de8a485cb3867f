import { configSchemaCompiler } from '../profile/config-schema.js'
import type { Exchange } from '../http/exchange.js'
import { violationsOf } from '../contract/schemas.js'
import type { Check, CheckContext } from './types.js'

/** The 200 JSON body of an operation, or a failure saying why there is none. */
async function successJson(ctx: CheckContext, exchange: Exchange): Promise<Record<string, unknown>> {
  const { response } = exchange
  if (response?.status !== 200) ctx.fail(`status ${response?.status ?? `none (${exchange.error?.message})`}, expected 200`, { exchange })
  if (response!.json === undefined) ctx.fail(`the body is ${response!.jsonError}`, { exchange })
  return response!.json as Record<string, unknown>
}

function recordsOf(body: Record<string, unknown>, list: boolean): Record<string, unknown>[] {
  const data = body?.data
  if (list) return Array.isArray(data) ? data.filter((item) => item !== null && typeof item === 'object') : []
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? [data as Record<string, unknown>] : []
}

function requiredMembersCheck(component: 'Vault' | 'Market', requirement: string): Check {
  const list = component === 'Market'
  const operation = list ? 'listMarkets' : 'getVault'
  return {
    id: `profile/${component.toLowerCase()}-required-members`,
    requirement,
    title: `${list ? 'every market of GET /v1/markets' : 'the vault of GET /v1/vault'} carries the members the profile's requiredMembers.${component} lists`,
    needs: ['apiKey'],
    profile: 'requiredMembers',
    async run(ctx) {
      const members = ctx.settings.profile!.values.requiredMembers![component]
      if (!members) ctx.skip(`the profile lists no required member of ${component} (requiredMembers.${component})`)
      const exchange = await ctx.call(operation)
      const records = recordsOf(await successJson(ctx, exchange), list)
      if (records.length === 0) ctx.skip(`${operation} answered no ${list ? 'market' : 'vault object'} to judge (envelope/data and the shapes checks judge the body itself)`)
      for (const [index, record] of records.entries()) {
        const missing = members!.filter((member) => !(member in record))
        if (missing.length > 0) ctx.fail(`${list ? `market ${index} (id ${JSON.stringify(record.id)})` : 'the vault'} has no ${missing.join(', ')}, which the profile says is required`, { exchange })
      }
    },
  }
}

export const profileShapeChecks: readonly Check[] = [
  requiredMembersCheck('Vault', 'SHAPE-VAULT-OPTIONAL'),
  requiredMembersCheck('Market', 'SHAPE-MARKET-OPTIONAL'),
  {
    id: 'profile/config-schema',
    requirement: 'EP-CONFIG-SHAPE',
    title: "GET /v1/config answers a body valid against the profile's configSchema",
    needs: ['apiKey'],
    profile: 'configSchema',
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      const body = await successJson(ctx, exchange)
      const validate = configSchemaCompiler().compile(ctx.settings.profile!.configSchema!)
      if (validate(body)) return
      const violations = violationsOf('configSchema', validate.errors)
      const first = violations[0]!
      ctx.fail(`configSchema${first.instancePath} ${first.message} (${first.keyword} at ${first.schemaPath})`, { exchange, violations })
    },
  },
]
