import type { RequirementId } from '../contract/catalogue-ids.js'
import type { ValidateFunction } from 'ajv'
import { configSchemaCompiler } from '../profile/config-schema.js'
import type { Exchange } from '../http/exchange.js'
import { violationsOf } from '../contract/schemas.js'
import type { OperationId } from '../contract/operations.js'
import type { Profile } from '../profile/profile.js'
import type { Finding, RecordedJudgement } from './exchange-judge.js'
import { isSuccessBody, pathsOf } from './success-bodies.js'
import type { Check, CheckContext } from './types.js'
import { statusOf } from './operation-calls.js'

/** The 200 JSON body of an operation, or a failure saying why there is none. */
async function successJson(ctx: CheckContext, exchange: Exchange): Promise<Record<string, unknown>> {
  const { response } = exchange
  if (response?.status !== 200) ctx.fail(`answered ${statusOf(exchange)}, expected 200`, { exchange })
  if (response!.json === undefined) ctx.fail(`the body is ${response!.jsonError}`, { exchange })
  return response!.json as Record<string, unknown>
}

function recordsOf(body: unknown, list: boolean): Record<string, unknown>[] {
  const data = (body as { data?: unknown } | null)?.data
  if (list) return Array.isArray(data) ? data.filter((item) => item !== null && typeof item === 'object') : []
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? [data as Record<string, unknown>] : []
}

/** A recorded 200 with a JSON body from the operation, judged only where the profile states what it is held to. */
function recordedSuccessOf(
  op: OperationId,
  stated: (profile: Profile | undefined) => boolean,
  violation: RecordedJudgement['violation'],
): RecordedJudgement {
  return {
    notApplicable: `no exchange was a 200 with a JSON body from ${pathsOf([op])}`,
    applies: (_, exchange, settings) =>
      exchange.operation === op && isSuccessBody(exchange) && stated(settings.profile),
    violation,
  }
}

type RecordComponent = 'Vault' | 'Market' | 'Balance' | 'PnL'

/**
 * How each component's records are read and named: the operation, whether data is a list, what one record is called.
 */
const RECORDS: Readonly<
  Record<RecordComponent, { operation: OperationId; list: boolean; noun: string; title: string }>
> = {
  Vault: { operation: 'getVault', list: false, noun: 'the vault', title: 'the vault of GET /v1/vault' },
  Market: { operation: 'listMarkets', list: true, noun: 'market', title: 'every market of GET /v1/markets' },
  Balance: {
    operation: 'listTraderBalances',
    list: true,
    noun: 'balance',
    title: 'every balance of the first page of GET /v1/traders/{address}/balances',
  },
  PnL: { operation: 'getTraderPnl', list: false, noun: 'the PnL', title: 'the PnL of GET /v1/traders/{address}/pnl' },
}

/** Whether a record has a member, given as a name or as group.member (PnL). */
export function hasMember(record: Record<string, unknown>, path: string): boolean {
  let holder: unknown = record
  for (const name of path.split('.')) {
    if (holder === null || typeof holder !== 'object' || !(name in holder)) return false
    holder = (holder as Record<string, unknown>)[name]
  }
  return true
}

/** The first record without one of the members, as a finding that says whose rule requires them. */
export function missingMembersOf(
  component: RecordComponent,
  records: readonly Record<string, unknown>[],
  members: readonly string[],
  because: string,
): string | undefined {
  const { noun } = RECORDS[component]
  for (const [index, record] of records.entries()) {
    const missing = members.filter((member) => !hasMember(record, member))
    const name =
      component === 'Market'
        ? `market ${index} (id ${JSON.stringify(record.id)})`
        : component === 'Balance'
          ? `balance ${index} (token ${JSON.stringify(record.token)})`
          : noun
    if (missing.length > 0) return `${name} has no ${missing.join(', ')}, ${because}`
  }
  return undefined
}

/** A check that every record of a component carries the given members: those a profile states, or all those listed. */
export function membersCheck(
  component: RecordComponent,
  check: Pick<Check, 'id' | 'requirement' | 'title' | 'profile'>,
  membersOf: (profile: Profile | undefined) => readonly string[] | undefined,
  because: string,
  unjudged = (_profile: Profile | undefined) =>
    `the profile lists no required member of ${component} (requiredMembers.${component})`,
): Check {
  const { operation, list } = RECORDS[component]
  const missingMembers = (records: readonly Record<string, unknown>[], members: readonly string[]) =>
    missingMembersOf(component, records, members, because)
  return {
    ...check,
    needs: component === 'Balance' || component === 'PnL' ? ['apiKey', 'trader'] : ['apiKey'],
    recorded: recordedSuccessOf(
      operation,
      (profile) => membersOf(profile) !== undefined,
      (response, _, settings) => missingMembers(recordsOf(response.json, list), membersOf(settings.profile)!),
    ),
    async run(ctx) {
      const members = membersOf(ctx.settings.profile)
      if (!members) ctx.skip(unjudged(ctx.settings.profile))
      const exchange = await ctx.call(operation)
      const records = recordsOf(await successJson(ctx, exchange), list)
      if (records.length === 0)
        ctx.skip(
          `${operation} answered no ${list ? RECORDS[component].noun : `${component} object`} to judge (envelope/data and the shapes checks judge the body itself)`,
        )
      const finding = missingMembers(records, members!)
      if (finding !== undefined) ctx.fail(finding, { exchange })
    },
  }
}

function requiredMembersCheck(component: RecordComponent, requirement: RequirementId): Check {
  return membersCheck(
    component,
    {
      id: `profile/${component.toLowerCase()}-required-members`,
      requirement,
      title: `${RECORDS[component].title} carries the members the profile's requiredMembers.${component} lists`,
      profile: 'requiredMembers',
    },
    (profile) => profile?.values.requiredMembers?.[component],
    'which the profile says is required',
  )
}

/** What the profile's configSchema finds wrong with a config body. */
/** The profile's configSchema compiled once, not for each response it judges. */
const compiledConfigSchemas = new WeakMap<object, ValidateFunction>()

function configSchemaValidator(schema: object): ValidateFunction {
  let validate = compiledConfigSchemas.get(schema)
  if (!validate) compiledConfigSchemas.set(schema, (validate = configSchemaCompiler().compile(schema)))
  return validate
}

function configSchemaFinding(body: unknown, profile: Profile): Finding | undefined {
  const validate = configSchemaValidator(profile.configSchema!)
  if (validate(body)) return undefined
  const violations = violationsOf('configSchema', validate.errors)
  const first = violations[0]!
  return {
    message: `configSchema${first.instancePath} ${first.message} (${first.keyword} at ${first.schemaPath})`,
    violations,
  }
}

export const profileShapeChecks: readonly Check[] = [
  requiredMembersCheck('Vault', 'SHAPE-VAULT-OPTIONAL'),
  requiredMembersCheck('Market', 'SHAPE-MARKET-OPTIONAL'),
  requiredMembersCheck('Balance', 'SHAPE-BALANCE-REQUIRED'),
  requiredMembersCheck('PnL', 'SHAPE-PNL-REQUIRED'),
  {
    id: 'profile/config-schema',
    requirement: 'EP-CONFIG-SHAPE',
    title: "GET /v1/config answers a body valid against the profile's configSchema",
    needs: ['apiKey'],
    profile: 'configSchema',
    recorded: recordedSuccessOf(
      'getConfig',
      (profile) => profile?.configSchema !== undefined,
      (response, _, settings) => configSchemaFinding(response.json, settings.profile!),
    ),
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      const body = await successJson(ctx, exchange)
      const finding = configSchemaFinding(body, ctx.settings.profile!)
      if (typeof finding === 'object') ctx.fail(finding.message, { exchange, violations: finding.violations })
    },
  },
]
