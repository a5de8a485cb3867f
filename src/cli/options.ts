import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { schemaPattern } from '../contract/schemas.js'
import type { RunOptions, Waiver } from '../runner/run.js'

/** A mistake in how the tool was called: one line naming the flag, exit 2. */
export class UsageError extends Error {
  readonly code = 'IPTS_USAGE'
}

type Kind = 'url' | 'secret' | 'address' | 'hash' | 'receipt' | 'int' | 'text' | 'flag' | 'list'

interface Flag {
  name: string
  env?: string
  kind: Kind
  help: string
  default?: string
  /** Bounds for int flags. */
  min?: number
  max?: number
}

/** Every flag of the CLI; each has an environment variable and a config file key of the same name. */
export const flags: readonly Flag[] = [
  { name: 'base-url', env: 'IPTS_BASE_URL', kind: 'url', help: 'base URL of the deployment under test; without it the embedded reference server is the target' },
  { name: 'api-key', env: 'IPTS_API_KEY', kind: 'secret', help: 'a project API key that grants every operation' },
  { name: 'restricted-api-key', env: 'IPTS_RESTRICTED_API_KEY', kind: 'secret', help: 'a valid key that lacks some scopes (for the 403 checks)' },
  { name: 'trader', env: 'IPTS_TRADER', kind: 'address', help: 'a trader address with PnL and balances (0x + 40 hex digits)' },
  { name: 'second-trader', env: 'IPTS_SECOND_TRADER', kind: 'address', help: 'another trader with balances, to test that a balances cursor is bound to its trader' },
  { name: 'intent-hash', env: 'IPTS_INTENT_HASH', kind: 'hash', help: 'hash of an intent whose status the suite may read' },
  { name: 'intent-receipt', env: 'IPTS_INTENT_RECEIPT', kind: 'receipt', help: "that intent's receipt capability" },
  { name: 'second-intent-hash', env: 'IPTS_SECOND_INTENT_HASH', kind: 'hash', help: 'a second intent, to test that a receipt is bound to its own intent' },
  { name: 'second-intent-receipt', env: 'IPTS_SECOND_INTENT_RECEIPT', kind: 'receipt', help: "the second intent's receipt" },
  { name: 'report-dir', env: 'IPTS_REPORT_DIR', kind: 'text', default: './conformance-report', help: 'where the report files are written' },
  { name: 'seed', env: 'IPTS_SEED', kind: 'int', min: -2147483648, max: 2147483647, help: 'seed of the generated inputs (default: random, printed in the report)' },
  { name: 'runs', env: 'IPTS_RUNS', kind: 'int', min: 1, max: 10000, default: '25', help: 'generated inputs per property check' },
  { name: 'concurrency', env: 'IPTS_CONCURRENCY', kind: 'int', min: 1, max: 64, default: '8', help: 'requests in flight at once' },
  { name: 'timeout', env: 'IPTS_TIMEOUT_MS', kind: 'int', min: 100, max: 600000, default: '10000', help: 'bound on one request, headers and body, in milliseconds' },
  { name: 'max-duration', env: 'IPTS_MAX_DURATION', kind: 'int', min: 1, max: 86400, default: '1800', help: 'bound on the whole run in seconds: later requests fail with that reason and the run finishes' },
  { name: 'cursor-param', env: 'IPTS_CURSOR_PARAM', kind: 'text', default: 'cursor', help: 'query parameter that carries a cursor (not shown in the contract)' },
  { name: 'limit-param', env: 'IPTS_LIMIT_PARAM', kind: 'text', default: 'limit', help: 'query parameter that sets the page size (not shown in the contract)' },
  { name: 'max-pages', env: 'IPTS_MAX_PAGES', kind: 'int', min: 2, max: 100000, default: '1000', help: 'pages a list walk follows at most; a longer list is reported skipped, not failed' },
  { name: 'check', env: 'IPTS_CHECK', kind: 'list', help: 'run only this check ID (repeatable, or comma-separated)' },
  { name: 'replay-path', env: 'IPTS_REPLAY_PATH', kind: 'text', help: 'with --seed and --check: replay one failing generated input (the report prints the command)' },
  { name: 'probe-rate-limit', env: 'IPTS_PROBE_RATE_LIMIT', kind: 'flag', help: 'opt in: send a bounded burst until a 429 arrives, and check the quota headers' },
  { name: 'baseline', env: 'IPTS_BASELINE', kind: 'text', help: "a previous run's report.json: say which checks newly fail, were fixed, or are unchanged" },
  { name: 'strict', env: 'IPTS_STRICT', kind: 'flag', help: 'a failed SHOULD check fails the run too' },
  { name: 'fault', env: 'IPTS_FAULT', kind: 'list', help: 'embedded reference only: switch on a named fault (repeatable)' },
  { name: 'allowance', env: 'IPTS_ALLOWANCE', kind: 'list', help: 'embedded reference only: switch on a named allowance (repeatable)' },
  { name: 'config', env: 'IPTS_CONFIG', kind: 'text', help: 'a YAML file with any of these settings (kebab-case keys) and waivers' },
  { name: 'help', kind: 'flag', help: 'print this help' },
  { name: 'version', kind: 'flag', help: 'print the version' },
]

const HASH = schemaPattern('Hash')
const ADDRESS = schemaPattern('Address')

export interface CliOptions {
  run: RunOptions
  reportDir: string
  baseline?: string
  help: boolean
  version: boolean
}

type Raw = Record<string, string | string[] | boolean | undefined>

/** Flags win over the environment, the environment over the config file, the file over defaults. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const fromFlags = parseFlags(argv)
  const fromEnv: Raw = {}
  for (const flag of flags) {
    const value = flag.env ? env[flag.env] : undefined
    if (value !== undefined && value !== '') fromEnv[flag.name] = flag.kind === 'flag' ? value !== '0' && value !== 'false' : flag.kind === 'list' ? value.split(',') : value
  }
  const configPath = (fromFlags.config ?? fromEnv.config) as string | undefined
  const file = configPath ? readConfigFile(configPath) : { values: {}, waivers: [] }
  const merged: Raw = { ...file.values, ...fromEnv, ...fromFlags }
  const value = (name: string) => {
    const given = merged[name]
    return given === undefined ? flags.find((f) => f.name === name)!.default : given
  }
  const checked = (name: string) => validate(name, value(name))
  const intent = (hashFlag: string, receiptFlag: string) => {
    const hash = checked(hashFlag) as string | undefined
    const receipt = checked(receiptFlag) as string | undefined
    if (!!hash !== !!receipt) throw new UsageError(`--${hash ? receiptFlag : hashFlag} is required with --${hash ? hashFlag : receiptFlag}`)
    return hash && receipt ? { hash, receipt } : undefined
  }
  const baseUrl = checked('base-url') as string | undefined
  const faults = checked('fault') as string[] | undefined
  const allowances = checked('allowance') as string[] | undefined
  if (baseUrl && (faults || allowances)) throw new UsageError(`--${faults ? 'fault' : 'allowance'} applies only to the embedded reference server, not with --base-url`)
  const replayPath = checked('replay-path') as string | undefined
  if (replayPath && ((checked('check') as string[] | undefined)?.length !== 1 || value('seed') === undefined)) throw new UsageError('--replay-path needs --seed and exactly one --check (the replay command in the report has them)')
  const run: RunOptions = {
    settings: {
      baseUrl,
      apiKey: checked('api-key') as string | undefined,
      restrictedApiKey: checked('restricted-api-key') as string | undefined,
      trader: checked('trader') as string | undefined,
      secondTrader: checked('second-trader') as string | undefined,
      intent: intent('intent-hash', 'intent-receipt'),
      secondIntent: intent('second-intent-hash', 'second-intent-receipt'),
      seed: (checked('seed') as number | undefined) ?? Math.floor(Math.random() * 2 ** 31),
      runs: checked('runs') as number,
      concurrency: checked('concurrency') as number,
      cursorParam: checked('cursor-param') as string,
      limitParam: checked('limit-param') as string,
      maxPages: checked('max-pages') as number,
      connectTimeoutMs: Math.min(checked('timeout') as number, 5000),
      requestTimeoutMs: checked('timeout') as number,
      maxBodyBytes: 4 * 1024 * 1024,
      replayPath,
      probeRateLimit: checked('probe-rate-limit') === true,
      maxDurationMs: (checked('max-duration') as number) * 1000,
    },
    only: checked('check') as string[] | undefined,
    strict: checked('strict') === true,
    waivers: file.waivers,
  }
  if (faults || allowances) run.reference = { faults, allowances }
  return { run, reportDir: checked('report-dir') as string, baseline: checked('baseline') as string | undefined, help: merged.help === true, version: merged.version === true }
}

function parseFlags(argv: readonly string[]): Raw {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(flags.map((f) => [f.name, { type: f.kind === 'flag' ? 'boolean' : 'string', multiple: f.kind === 'list' }])),
    })
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (flags start with --; see --help)`)
    const raw = values as Raw
    for (const flag of flags) if (flag.kind === 'list' && raw[flag.name]) raw[flag.name] = (raw[flag.name] as string[]).flatMap((v) => v.split(','))
    return raw
  } catch (error) {
    if (error instanceof UsageError) throw error
    const message = (error as Error).message
    const option = /'(-{1,2}[^'\s]+)/.exec(message)?.[1]
    if (/Unknown option/.test(message)) throw new UsageError(`unknown flag ${option} (see --help)`)
    if (/argument missing/.test(message)) throw new UsageError(`${option?.replace(/ <value>$/, '')} needs a value`)
    throw new UsageError(message.split('\n')[0]!)
  }
}

function readConfigFile(path: string): { values: Raw; waivers: Waiver[] } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--config: cannot read ${path} (${(error as { code?: string }).code ?? 'error'})`)
  }
  let parsed: unknown
  try {
    parsed = parseYaml(text)
  } catch (error) {
    throw new UsageError(`--config: ${path} is not valid YAML: ${(error as Error).message.split('\n')[0]}`)
  }
  if (parsed === null || parsed === undefined) return { values: {}, waivers: [] }
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--config: ${path} must hold a mapping of settings`)
  const values: Raw = {}
  let waivers: Waiver[] = []
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === 'waivers') {
      waivers = readWaivers(path, value)
      continue
    }
    const flag = flags.find((f) => f.name === key)
    if (!flag || key === 'config' || key === 'help' || key === 'version') throw new UsageError(`--config: unknown setting ${JSON.stringify(key)} in ${path}`)
    values[key] = flag.kind === 'flag' ? value === true : flag.kind === 'list' ? (Array.isArray(value) ? value.map(String) : String(value).split(',')) : String(value)
  }
  return { values, waivers }
}

function readWaivers(path: string, value: unknown): Waiver[] {
  if (!Array.isArray(value)) throw new UsageError(`--config: waivers in ${path} must be a list of {check, reason}`)
  return value.map((entry, i) => {
    const { check, reason } = (entry ?? {}) as Record<string, unknown>
    if (typeof check !== 'string' || typeof reason !== 'string' || reason.trim() === '') {
      throw new UsageError(`--config: waiver ${i + 1} in ${path} needs a check ID and a non-empty reason`)
    }
    return { check, reason }
  })
}

function validate(name: string, value: string | string[] | boolean | undefined): unknown {
  if (value === undefined) return undefined
  const flag = flags.find((f) => f.name === name)!
  const text = String(value)
  const bad = (what: string): never => {
    throw new UsageError(`--${name} ${what}`)
  }
  switch (flag.kind) {
    case 'url': {
      let url: URL
      try {
        url = new URL(text)
      } catch {
        return bad(`must be an absolute http(s) URL, got ${JSON.stringify(text)}`)
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') bad(`must be an http or https URL, got ${url.protocol}`)
      if (url.search || url.hash) bad('must not carry a query or fragment')
      return text.replace(/\/+$/, '')
    }
    case 'address':
      return ADDRESS.test(text) ? text : bad('must be 0x followed by 40 hex digits')
    case 'hash':
      return HASH.test(text) ? text : bad('must be 0x followed by 64 hex digits')
    case 'receipt':
      return text.length >= 1 && text.length <= 512 ? text : bad('must be 1 to 512 characters')
    case 'secret':
      return text.length > 0 ? text : bad('must not be empty')
    case 'int': {
      if (!/^-?[0-9]+$/.test(text)) return bad(`must be a whole number, got ${JSON.stringify(text)}`)
      const number = Number(text)
      if (number < flag.min! || number > flag.max!) bad(`must be from ${flag.min} to ${flag.max}, got ${number}`)
      return number
    }
    case 'flag':
      return value === true
    case 'list':
      return (value as string[]).map((v) => v.trim()).filter(Boolean)
    case 'text':
      return text.length > 0 ? text : bad('must not be empty')
  }
}

export function helpText(version: string): string {
  const lines = flags.map((f) => {
    const value = f.kind === 'flag' ? '' : f.kind === 'int' ? ' N' : ' VALUE'
    const extra = [f.env ? `env ${f.env}` : '', f.default ? `default ${f.default}` : ''].filter(Boolean).join('; ')
    return `  --${f.name}${value}\n      ${f.help}${extra ? ` (${extra})` : ''}`
  })
  return [
    `ipts-conformance ${version}: conformance suite for the Indexed-Protocol Trading Service REST interface`,
    '',
    'Usage: ipts-conformance [flags]',
    '',
    ...lines,
    '',
    'Exit codes: 0 no MUST check failed (nor a SHOULD check, with --strict); 1 a check failed; 2 a usage error or an unreachable target.',
  ].join('\n')
}
