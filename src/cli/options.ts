import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { closestFirst } from '../core/closest.js'
import { yamlProblem } from '../core/yaml-problem.js'
import { connectTimeoutFor, randomSeed, settingDefaults, type FilledSettings } from '../core/defaults.js'
import { profileValues, readProfileFile, type ProfileSource } from '../profile/load.js'
import type { CheckId } from '../contract/catalogue-ids.js'
import type { AllowanceName } from '../reference/allowance-names.js'
import type { FaultName } from '../reference/fault-names.js'
import type { RunOptions, Waiver } from '../runner/options.js'
import { UsageError } from '../core/errors.js'
import {
  booleanOf,
  emptyValue,
  envName,
  flagsHelp,
  misspeltVariables,
  parseFlags,
  readEnvironment,
  validateFlag,
  type Flag,
  type RawFlags,
} from './flags.js'
import { SETTING_BOUNDS, validateRunOptions } from '../runner/validate-options.js'
import { baselineFlag, minAssessedFlag } from './subcommand-args.js'

/** The CLI's flags, before each is given its variable. */
const flagTable: readonly Flag[] = [
  {
    name: 'base-url',
    kind: 'url',
    help: 'base URL of the deployment under test; without it the embedded reference server is the target',
  },
  { name: 'api-key', kind: 'secret', help: 'a project API key that grants every operation' },
  { name: 'restricted-api-key', kind: 'secret', help: 'a valid key that lacks some scopes (for the 403 checks)' },
  { name: 'trader', kind: 'address', help: 'a trader address with PnL and balances (0x + 40 hex digits)' },
  {
    name: 'second-trader',
    kind: 'address',
    help: 'another trader with balances, to test that a balances cursor is bound to its trader',
  },
  { name: 'intent-hash', kind: 'hash', help: 'hash of an intent whose status the suite may read' },
  { name: 'intent-receipt', kind: 'receipt', help: "that intent's receipt capability" },
  {
    name: 'second-intent-hash',
    kind: 'hash',
    help: 'a second intent, to test that a receipt is bound to its own intent',
  },
  { name: 'second-intent-receipt', kind: 'receipt', help: "the second intent's receipt" },
  { name: 'report-dir', kind: 'folder', default: './conformance-report', help: 'where the report files are written' },
  {
    name: 'seed',
    kind: 'int',
    ...SETTING_BOUNDS.seed,
    help: 'seed of the generated inputs (default: random, printed in the report)',
  },
  {
    name: 'runs',
    kind: 'int',
    ...SETTING_BOUNDS.runs,
    default: String(settingDefaults.runs),
    help: 'generated inputs per property check',
  },
  {
    name: 'concurrency',
    kind: 'int',
    ...SETTING_BOUNDS.concurrency,
    default: String(settingDefaults.concurrency),
    help: 'requests in flight at once',
  },
  {
    name: 'timeout',
    kind: 'int',
    ...SETTING_BOUNDS.requestTimeoutMs,
    default: String(settingDefaults.requestTimeoutMs),
    help: 'bound on one request, headers and body, in milliseconds',
  },
  {
    name: 'max-duration',
    kind: 'int',
    min: SETTING_BOUNDS.maxDurationMs.min / 1000,
    max: SETTING_BOUNDS.maxDurationMs.max / 1000,
    default: String(settingDefaults.maxDurationMs / 1000),
    help: 'bound on the whole run in seconds: the checks it cuts off are reported not run with that reason (never failed), the reports are written, and the verdict is that of what ran',
  },
  {
    name: 'duration',
    kind: 'duration',
    ...SETTING_BOUNDS.durationMs,
    help: 'after the checks, read every operation again (each key and class of input, the lists walked whole) in rounds for this long, each round on a new connection: a soak (90s, 10m, 2h; at least one turn of the inputs; --max-duration then bounds the checks alone). Without it a run reads every operation once more at its end, on a new connection (the last sweep)',
  },
  {
    name: 'rate',
    kind: 'int',
    ...SETTING_BOUNDS.rate,
    default: String(settingDefaults.rate),
    help: "with --duration: the soak's requests per second at most (429s are waited out and counted)",
  },
  {
    name: 'cursor-param',
    kind: 'text',
    default: settingDefaults.cursorParam,
    help: 'query parameter that carries a cursor (not shown in the contract)',
  },
  {
    name: 'limit-param',
    kind: 'text',
    default: settingDefaults.limitParam,
    help: 'query parameter that sets the page size (not shown in the contract)',
  },
  {
    name: 'max-pages',
    kind: 'int',
    ...SETTING_BOUNDS.maxPages,
    default: String(settingDefaults.maxPages),
    help: 'pages a list walk follows at most; a longer list is reported skipped, not failed',
  },
  { name: 'check', kind: 'list', help: 'run only this check ID (repeatable, or comma-separated)' },
  {
    name: 'replay-path',
    kind: 'text',
    help: 'with --seed and --check: replay one failing generated input (the report prints the command)',
  },
  {
    name: 'probe-rate-limit',
    kind: 'flag',
    help: 'opt in: send a bounded burst until a 429 arrives, and check the quota headers',
  },
  {
    name: 'allow-writes',
    kind: 'flag',
    help: "opt in, on the command line only: send the profile's relayed writes (signed submissions that create orders on the target); the run prints its plan first",
  },
  {
    name: 'max-writes',
    kind: 'int',
    ...SETTING_BOUNDS.maxWrites,
    help: 'with --allow-writes: submissions the run sends at most; a write check that would pass the bound is skipped with that reason',
  },
  baselineFlag,
  { name: 'strict', kind: 'flag', help: 'a failed SHOULD check fails the run too' },
  minAssessedFlag,
  {
    name: 'raw-record',
    kind: 'flag',
    help: 'keep every response header and body member as received (secrets redacted by detection alone) in the reports and the HAR, not only those the contract and HTTP define; the files may then hold secrets',
  },
  { name: 'fault', kind: 'list', help: 'embedded reference only: switch on a named fault (repeatable)' },
  { name: 'allowance', kind: 'list', help: 'embedded reference only: switch on a named allowance (repeatable)' },
  {
    name: 'profile',
    kind: 'text',
    help: "a deployment profile (YAML, specs/profile.schema.json): facts the contract leaves 'not shown', each checked as MUST; `ipts-conformance profile init` writes a template",
  },
  {
    name: 'config',
    kind: 'text',
    help: 'a YAML file with any of these settings (kebab-case keys), waivers, and a profile (a file or the mapping itself)',
  },
]

/** Variables a flag's variable was once called, still read. */
const ENV_ALIASES: Record<string, readonly string[]> = { timeout: ['IPTS_TIMEOUT_MS'] }

/**
 * Every flag of the CLI; each has an environment variable named after it (envName) and a config file key of the same
 * name, but --allow-writes, which only the command line gives.
 */
export const flags: readonly Flag[] = flagTable.map((flag) =>
  flag.name === 'allow-writes'
    ? flag
    : { ...flag, env: envName(flag.name), ...(ENV_ALIASES[flag.name] ? { envAliases: ENV_ALIASES[flag.name] } : {}) },
)

/** IPTS_ variables read by npx vitest run besides the flags' own (src/vitest, vitest.config.ts). */
const READ_ELSEWHERE = ['IPTS_ALLOW_WRITES']

export interface CliOptions {
  run: RunOptions & { settings: FilledSettings }
  reportDir: string
  baseline?: string
  /** Lines for stderr about the environment: variables set but empty, variables no flag reads that are close to one. */
  notices: string[]
}

/** The setting of the run each flag gives, for the messages of the validation the API shares (validateRunOptions). */
const FLAG_OF_SETTING: Record<string, string> = {
  baseUrl: 'base-url',
  apiKey: 'api-key',
  restrictedApiKey: 'restricted-api-key',
  trader: 'trader',
  secondTrader: 'second-trader',
  intent: 'intent-hash',
  secondIntent: 'second-intent-hash',
  seed: 'seed',
  runs: 'runs',
  concurrency: 'concurrency',
  requestTimeoutMs: 'timeout',
  maxDurationMs: 'max-duration',
  durationMs: 'duration',
  rate: 'rate',
  cursorParam: 'cursor-param',
  limitParam: 'limit-param',
  maxPages: 'max-pages',
  replayPath: 'replay-path',
  probeRateLimit: 'probe-rate-limit',
  allowWrites: 'allow-writes',
  maxWrites: 'max-writes',
  only: 'check',
  faults: 'fault',
  allowances: 'allowance',
  minAssessed: 'min-assessed',
}

/** A notice of every run with --raw-record (the CLI's and `npx vitest run`'s), before it sends anything. */
export const RAW_RECORD_WARNING =
  'warning: --raw-record: the reports and the HAR keep every response header and body member as received, secrets redacted by detection alone; these files may hold secrets in an encoding redaction does not know'

/** Flags win over the environment, the environment over the config file, the file over defaults. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values: fromFlags, positionals } = parseFlags(argv, flags)
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (flags start with --; see --help)`)
  const notices: string[] = []
  const { values: fromEnv, sources: envSources } = readEnvironment(flags, env, notices)
  notices.push(...misspeltVariables(flags, env, READ_ELSEWHERE))
  const configPath = (fromFlags.config ?? fromEnv.config) as string | undefined
  const file: ConfigFile = configPath ? readConfigFile(configPath, notices) : { values: {}, waivers: [] }
  const merged: RawFlags = { ...file.values, ...fromEnv, ...fromFlags }
  const value = (name: string) => {
    const given = merged[name]
    return given === undefined ? flags.find((f) => f.name === name)!.default : given
  }
  /**
   * Where a value came from, as a message names it: the flag, the environment variable, or the file and its key; a flag
   * not given anywhere with its variable.
   */
  const sourceOf = (name: string) => {
    const flag = flags.find((f) => f.name === name)!
    if (merged[name] === undefined) return flag.env ? `--${name} (or ${flag.env})` : `--${name}`
    if (fromFlags[name] !== undefined) return `--${name}`
    return fromEnv[name] !== undefined ? envSources[name]! : `${name} in ${configPath}`
  }
  const checked = (name: string) =>
    validateFlag(
      flags.find((f) => f.name === name)!,
      value(name),
      merged[name] === undefined ? `--${name}` : sourceOf(name),
    )
  const intent = (hashFlag: string, receiptFlag: string) => {
    const hash = checked(hashFlag) as string | undefined
    const receipt = checked(receiptFlag) as string | undefined
    if (!!hash !== !!receipt)
      throw new UsageError(`--${hash ? receiptFlag : hashFlag} is required with --${hash ? hashFlag : receiptFlag}`)
    return hash && receipt ? { hash, receipt } : undefined
  }
  // Typed as the catalogue's names: validateRunOptions below refuses an unknown check ID, and the run an unknown
  // fault or allowance, as a usage error.
  const faults = checked('fault') as FaultName[] | undefined
  const allowances = checked('allowance') as AllowanceName[] | undefined
  const only = checked('check') as CheckId[] | undefined
  const given = {
    baseUrl: checked('base-url') as string | undefined,
    apiKey: checked('api-key') as string | undefined,
    restrictedApiKey: checked('restricted-api-key') as string | undefined,
    trader: checked('trader') as string | undefined,
    secondTrader: checked('second-trader') as string | undefined,
    intent: intent('intent-hash', 'intent-receipt'),
    secondIntent: intent('second-intent-hash', 'second-intent-receipt'),
    seed: checked('seed') as number | undefined,
    runs: checked('runs') as number,
    concurrency: checked('concurrency') as number,
    cursorParam: checked('cursor-param') as string,
    limitParam: checked('limit-param') as string,
    maxPages: checked('max-pages') as number,
    connectTimeoutMs: connectTimeoutFor(checked('timeout') as number),
    requestTimeoutMs: checked('timeout') as number,
    maxBodyBytes: settingDefaults.maxBodyBytes,
    replayPath: checked('replay-path') as string | undefined,
    probeRateLimit: checked('probe-rate-limit') === true,
    rawRecord: checked('raw-record') === true,
    // Never from the environment or a file: a write creates orders, so only this command line may ask for it.
    allowWrites: fromFlags['allow-writes'] === true,
    maxWrites: checked('max-writes') as number | undefined,
    maxDurationMs: (checked('max-duration') as number) * 1000,
    durationMs: checked('duration') as number | undefined,
    rate: checked('rate') as number,
    shapingFlags: [
      configPath && `--config ${shellWord(configPath)}`,
      checked('profile') && `--profile ${shellWord(checked('profile') as string)}`,
    ].filter((flag): flag is string => !!flag),
  }
  const reference = faults || allowances ? { faults, allowances } : undefined
  // The rules the API holds its options to, named as this command line was given them.
  const minAssessed = checked('min-assessed') as number | undefined
  validateRunOptions({ settings: given, only, waivers: file.waivers, reference, minAssessed }, (setting) =>
    setting === 'waivers' ? `--config: ${configPath}: waiver` : sourceOf(FLAG_OF_SETTING[setting]!),
  )
  const run: CliOptions['run'] = {
    settings: { ...given, seed: given.seed ?? randomSeed() },
    only,
    strict: checked('strict') === true,
    minAssessed,
    waivers: file.waivers,
  }
  const profilePath = checked('profile') as string | undefined
  if (profilePath)
    run.profile = {
      values: readProfileFile(profilePath, sourceOf('profile')),
      baseDir: dirname(resolve(profilePath)),
      source: profilePath,
    }
  else if (file.profile) run.profile = file.profile
  if (reference) run.reference = reference
  if (run.settings.rawRecord) notices.push(RAW_RECORD_WARNING)
  return {
    run,
    reportDir: checked('report-dir') as string,
    baseline: checked('baseline') as string | undefined,
    notices,
  }
}

interface ConfigFile {
  values: RawFlags
  waivers: Waiver[]
  /** A profile given inline as the file's profile mapping. */
  profile?: ProfileSource
}

function readConfigFile(path: string, notices: string[]): ConfigFile {
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
    throw new UsageError(`--config: ${path} is ${yamlProblem(error)}`)
  }
  if (parsed === null || parsed === undefined) return { values: {}, waivers: [] }
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--config: ${path} must hold a mapping of settings`)
  const values: RawFlags = {}
  let waivers: Waiver[] = []
  let profile: ProfileSource | undefined
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === 'waivers') {
      waivers = readWaivers(path, value)
      continue
    }
    if (key === 'profile' && value !== null && typeof value === 'object') {
      profile = {
        values: profileValues({ profile: value }, path),
        baseDir: dirname(resolve(path)),
        source: `the profile of ${path}`,
      }
      continue
    }
    if (key === 'allow-writes')
      throw new UsageError(
        `--config: allow-writes in ${path} is not read: writes are sent only with --allow-writes on the command line`,
      )
    const flag = flags.find((f) => f.name === key)
    if (!flag || key === 'config')
      throw new UsageError(
        `--config: unknown setting ${JSON.stringify(key)} in ${path} (closest: ${closestFirst(key, [
          ...flags.filter((f) => f.name !== 'config').map((f) => f.name),
          'waivers',
        ])
          .slice(0, 3)
          .join(', ')})`,
      )
    const source = `${key} in ${path}`
    if (value === null || (typeof value === 'string' && value.trim() === '')) {
      emptyValue(flag, source, notices)
      continue
    }
    if (flag.kind === 'list') values[key] = Array.isArray(value) ? value.map(String) : String(value).split(',')
    else if (typeof value === 'object')
      throw new UsageError(`${source} must be a single value, got ${Array.isArray(value) ? 'a list' : 'a mapping'}`)
    else values[key] = flag.kind === 'flag' ? booleanOf(value, source) : String(value)
  }
  return { values, waivers, profile }
}

function readWaivers(path: string, value: unknown): Waiver[] {
  if (!Array.isArray(value)) throw new UsageError(`--config: waivers in ${path} must be a list of {check, reason}`)
  return value.map((entry, i) => {
    const { check, reason } = (entry ?? {}) as Record<string, unknown>
    if (typeof check !== 'string' || typeof reason !== 'string' || reason.trim() === '') {
      throw new UsageError(`--config: waiver ${i + 1} in ${path} needs a check ID and a non-empty reason`)
    }
    // An unknown check ID is refused by validateRunOptions, naming this file.
    return { check: check as CheckId, reason }
  })
}

/** A path as one word of a shell command. */
const shellWord = (text: string) => (/^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/** The run's --help: what it does and its flags. */
export function runHelp(): string {
  return [
    'Usage: ipts-conformance [run] [flags]',
    '',
    'Runs the conformance suite against a deployment, or the embedded reference server without --base-url.',
    '',
    ...flagsHelp(flags),
  ].join('\n')
}
