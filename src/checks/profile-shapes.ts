import { configSchemaCompiler } from '../profile/config-schema.js'
import type { Exchange } from '../http/exchange.js'
import { violationsOf } from '../contract/schemas.js'
import type { OperationId } from '../contract/operations.js'
import type { Profile } from '../profile/profile.js'
import type { Finding, RecordedJudgement } from './exchange-judge.js'
import { isSuccessBody, pathsOf } from './success-bodies.js'
import type { Check, CheckContext } from './types.js'

/** The 200 JSON body of an operation, or a failure saying why there is none. */
async function successJson(ctx: CheckContext, exchange: Exchange): Promise<Record<string, unknown>> {
  const { response } = exchange
  if (response?.status !== 200) ctx.fail(`status ${response?.status ?? `none (${exchange.error?.message})`}, expected 200`, { exchange })
  if (response!.json === undefined) ctx.fail(`the body is ${response!.jsonError}`, { exchange })
  return response!.json as Record<string, unknown>
}

function recordsOf(body: unknown, list: boolean): Record<string, unknown>[] {
  const data = (body as { data?: unknown } | null)?.data
  if (list) return Array.isArray(data) ? data.filter((item) => item !== null && typeof item === 'object') : []
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? [data as Record<string, unknown>] : []
}

/** A recorded 200 with a JSON body from the operation, judged only where the profile states what it is held to. */
function recordedSuccessOf(op: OperationId, stated: (profile: Profile | undefined) => boolean, violation: RecordedJudgement['violation']): RecordedJudgement {
  return {
    notApplicable: `no exchange was a 200 with a JSON body from ${pathsOf([op])}`,
    applies: (_, exchange, settings) => exchange.operation === op && isSuccessBody(exchange) && stated(settings.profile),
    violation,
  }
}

function requiredMembersCheck(component: 'Vault' | 'Market', requirement: string): Check {
  const list = component === 'Market'
  const operation = list ? 'listMarkets' : 'getVault'
  const membersOf = (profile: Profile | undefined) => profile?.values.requiredMembers?.[component]
  /** The first record without a member the profile requires, as a finding. */
  const missingMembers = (records: readonly Record<string, unknown>[], members: readonly string[]): string | undefined => {
    for (const [index, record] of records.entries()) {
      const missing = members.filter((member) => !(member in record))
      if (missing.length > 0) return `${list ? `market ${index} (id ${JSON.stringify(record.id)})` : 'the vault'} has no ${missing.join(', ')}, which the profile says is required`
    }
    return undefined
  }
  return {
    id: `profile/${component.toLowerCase()}-required-members`,
    requirement,
    title: `${list ? 'every market of GET /v1/markets' : 'the vault of GET /v1/vault'} carries the members the profile's requiredMembers.${component} lists`,
    needs: ['apiKey'],
    profile: 'requiredMembers',
    recorded: recordedSuccessOf(operation, (profile) => membersOf(profile) !== undefined, (response, _, settings) => missingMembers(recordsOf(response.json, list), membersOf(settings.profile)!)),
    async run(ctx) {
      const members = membersOf(ctx.settings.profile)
      if (!members) ctx.skip(`the profile lists no required member of ${component} (requiredMembers.${component})`)
      const exchange = await ctx.call(operation)
      const records = recordsOf(await successJson(ctx, exchange), list)
      if (records.length === 0) ctx.skip(`${operation} answered no ${list ? 'market' : 'vault object'} to judge (envelope/data and the shapes checks judge the body itself)`)
      const finding = missingMembers(records, members!)
      if (finding !== undefined) ctx.fail(finding, { exchange })
    },
  }
}

/** What the profile's configSchema finds wrong with a config body. */
function configSchemaFinding(body: unknown, profile: Profile): Finding | undefined {
  const validate = configSchemaCompiler().compile(profile.configSchema!)
  if (validate(body)) return undefined
  const violations = violationsOf('configSchema', validate.errors)
  const first = violations[0]!
  return { message: `configSchema${first.instancePath} ${first.message} (${first.keyword} at ${first.schemaPath})`, violations }
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
    recorded: recordedSuccessOf('getConfig', (profile) => profile?.configSchema !== undefined, (response, _, settings) => configSchemaFinding(response.json, settings.profile!)),
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      const body = await successJson(ctx, exchange)
      const finding = configSchemaFinding(body, ctx.settings.profile!)
      if (typeof finding === 'object') ctx.fail(finding.message, { exchange, violations: finding.violations })
    },
  },
]
