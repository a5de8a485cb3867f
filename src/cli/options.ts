import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { unknownCheckId } from '../checks/index.js'
import { closestFirst } from '../core/closest.js'
import { yamlProblem } from '../core/yaml-problem.js'
import { connectTimeoutFor, randomSeed, settingDefaults, type FilledSettings } from '../core/defaults.js'
import { profileValues, readProfileFile, type ProfileSource } from '../profile/load.js'
import type { RunOptions, Waiver } from '../runner/options.js'
import { UsageError } from '../core/errors.js'
import { flagsHelp, parseFlags, validateFlag, type Flag, type RawFlags } from './flags.js'


/** Every flag of the CLI; each has an environment variable and a config file key of the same name, but --allow-writes, which only the command line gives. */
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
  { name: 'report-dir', env: 'IPTS_REPORT_DIR', kind: 'folder', default: './conformance-report', help: 'where the report files are written' },
  { name: 'seed', env: 'IPTS_SEED', kind: 'int', min: -2147483648, max: 2147483647, help: 'seed of the generated inputs (default: random, printed in the report)' },
  { name: 'runs', env: 'IPTS_RUNS', kind: 'int', min: 1, max: 10000, default: String(settingDefaults.runs), help: 'generated inputs per property check' },
  { name: 'concurrency', env: 'IPTS_CONCURRENCY', kind: 'int', min: 1, max: 64, default: String(settingDefaults.concurrency), help: 'requests in flight at once' },
  { name: 'timeout', env: 'IPTS_TIMEOUT_MS', kind: 'int', min: 100, max: 600000, default: String(settingDefaults.requestTimeoutMs), help: 'bound on one request, headers and body, in milliseconds' },
  { name: 'max-duration', env: 'IPTS_MAX_DURATION', kind: 'int', min: 1, max: 86400, default: String(settingDefaults.maxDurationMs / 1000), help: 'bound on the whole run in seconds: later requests fail with that reason and the run finishes' },
  { name: 'cursor-param', env: 'IPTS_CURSOR_PARAM', kind: 'text', default: settingDefaults.cursorParam, help: 'query parameter that carries a cursor (not shown in the contract)' },
  { name: 'limit-param', env: 'IPTS_LIMIT_PARAM', kind: 'text', default: settingDefaults.limitParam, help: 'query parameter that sets the page size (not shown in the contract)' },
  { name: 'max-pages', env: 'IPTS_MAX_PAGES', kind: 'int', min: 2, max: 100000, default: String(settingDefaults.maxPages), help: 'pages a list walk follows at most; a longer list is reported skipped, not failed' },
  { name: 'check', env: 'IPTS_CHECK', kind: 'list', help: 'run only this check ID (repeatable, or comma-separated)' },
  { name: 'replay-path', env: 'IPTS_REPLAY_PATH', kind: 'text', help: 'with --seed and --check: replay one failing generated input (the report prints the command)' },
  { name: 'probe-rate-limit', env: 'IPTS_PROBE_RATE_LIMIT', kind: 'flag', help: 'opt in: send a bounded burst until a 429 arrives, and check the quota headers' },
  { name: 'allow-writes', kind: 'flag', help: "opt in, on the command line only: send the profile's relayed writes (signed submissions that create orders on the target); the run prints its plan first" },
  { name: 'max-writes', env: 'IPTS_MAX_WRITES', kind: 'int', min: 0, max: 100000, help: 'with --allow-writes: submissions the run sends at most; a write check that would pass the bound is skipped with that reason' },
  { name: 'baseline', env: 'IPTS_BASELINE', kind: 'text', help: "a previous run's report.json: say which checks newly fail, were fixed, or are unchanged" },
  { name: 'strict', env: 'IPTS_STRICT', kind: 'flag', help: 'a failed SHOULD check fails the run too' },
  { name: 'raw-record', env: 'IPTS_RAW_RECORD', kind: 'flag', help: 'keep every response header and body member as received (secrets redacted by detection alone) in the reports and the HAR, not only those the contract and HTTP define; the files may then hold secrets' },
  { name: 'fault', env: 'IPTS_FAULT', kind: 'list', help: 'embedded reference only: switch on a named fault (repeatable)' },
  { name: 'allowance', env: 'IPTS_ALLOWANCE', kind: 'list', help: 'embedded reference only: switch on a named allowance (repeatable)' },
  { name: 'profile', env: 'IPTS_PROFILE', kind: 'text', help: "a deployment profile (YAML, specs/profile.schema.json): facts the contract leaves 'not shown', each checked as MUST; `ipts-conformance profile init` writes a template" },
  { name: 'config', env: 'IPTS_CONFIG', kind: 'text', help: 'a YAML file with any of these settings (kebab-case keys), waivers, and a profile (a file or the mapping itself)' },
]

export interface CliOptions {
  run: RunOptions & { settings: FilledSettings }
  reportDir: string
  baseline?: string
}

/** Flags win over the environment, the environment over the config file, the file over defaults. */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values: fromFlags, positionals } = parseFlags(argv, flags)
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (flags start with --; see --help)`)
  const fromEnv: RawFlags = {}
  for (const flag of flags) {
    const value = flag.env ? env[flag.env] : undefined
    if (value !== undefined && value !== '') fromEnv[flag.name] = flag.kind === 'flag' ? value !== '0' && value !== 'false' : flag.kind === 'list' ? value.split(',') : value
  }
  const configPath = (fromFlags.config ?? fromEnv.config) as string | undefined
  const file: ConfigFile = configPath ? readConfigFile(configPath) : { values: {}, waivers: [] }
  const merged: RawFlags = { ...file.values, ...fromEnv, ...fromFlags }
  const value = (name: string) => {
    const given = merged[name]
    return given === undefined ? flags.find((f) => f.name === name)!.default : given
  }
  /** Where a value came from, as a message names it: the flag, the environment variable, or the file and its key. */
  const sourceOf = (name: string) => {
    const flag = flags.find((f) => f.name === name)!
    if (fromFlags[name] !== undefined || merged[name] === undefined) return `--${name}`
    return fromEnv[name] !== undefined ? flag.env! : `${name} in ${configPath}`
  }
  const checked = (name: string) => validateFlag(flags.find((f) => f.name === name)!, value(name), sourceOf(name))
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
  const only = checked('check') as string[] | undefined
  const unknown = unknownCheckId(only)
  if (unknown !== undefined) throw new UsageError(`${sourceOf('check')}: ${unknown}`)
  const replayPath = checked('replay-path') as string | undefined
  if (replayPath && ((checked('check') as string[] | undefined)?.length !== 1 || value('seed') === undefined)) throw new UsageError('--replay-path needs --seed and exactly one --check (the replay command in the report has them)')
  const run: CliOptions['run'] = {
    settings: {
      baseUrl,
      apiKey: checked('api-key') as string | undefined,
      restrictedApiKey: checked('restricted-api-key') as string | undefined,
      trader: checked('trader') as string | undefined,
      secondTrader: checked('second-trader') as string | undefined,
      intent: intent('intent-hash', 'intent-receipt'),
      secondIntent: intent('second-intent-hash', 'second-intent-receipt'),
      seed: (checked('seed') as number | undefined) ?? randomSeed(),
      runs: checked('runs') as number,
      concurrency: checked('concurrency') as number,
      cursorParam: checked('cursor-param') as string,
      limitParam: checked('limit-param') as string,
      maxPages: checked('max-pages') as number,
      connectTimeoutMs: connectTimeoutFor(checked('timeout') as number),
      requestTimeoutMs: checked('timeout') as number,
      maxBodyBytes: settingDefaults.maxBodyBytes,
      replayPath,
      probeRateLimit: checked('probe-rate-limit') === true,
      rawRecord: checked('raw-record') === true,
      // Never from the environment or a file: a write creates orders, so only this command line may ask for it.
      allowWrites: fromFlags['allow-writes'] === true,
      maxWrites: checked('max-writes') as number | undefined,
      maxDurationMs: (checked('max-duration') as number) * 1000,
      shapingFlags: [configPath && `--config ${shellWord(configPath)}`, checked('profile') && `--profile ${shellWord(checked('profile') as string)}`].filter((flag): flag is string => !!flag),
    },
    only,
    strict: checked('strict') === true,
    waivers: file.waivers,
  }
  const profilePath = checked('profile') as string | undefined
  if (profilePath) run.profile = { values: readProfileFile(profilePath, sourceOf('profile')), baseDir: dirname(resolve(profilePath)), source: profilePath }
  else if (file.profile) run.profile = file.profile
  if (faults || allowances) run.reference = { faults, allowances }
  return { run, reportDir: checked('report-dir') as string, baseline: checked('baseline') as string | undefined }
}

interface ConfigFile {
  values: RawFlags
  waivers: Waiver[]
  /** A profile given inline as the file's profile mapping. */
  profile?: ProfileSource
}

function readConfigFile(path: string): ConfigFile {
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
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--config: ${path} must hold a mapping of settings`)
  const values: RawFlags = {}
  let waivers: Waiver[] = []
  let profile: ProfileSource | undefined
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === 'waivers') {
      waivers = readWaivers(path, value)
      continue
    }
    if (key === 'profile' && value !== null && typeof value === 'object') {
      profile = { values: profileValues({ profile: value }, path), baseDir: dirname(resolve(path)), source: `the profile of ${path}` }
      continue
    }
    if (key === 'allow-writes') throw new UsageError(`--config: allow-writes in ${path} is not read: writes are sent only with --allow-writes on the command line`)
    const flag = flags.find((f) => f.name === key)
    if (!flag || key === 'config') throw new UsageError(`--config: unknown setting ${JSON.stringify(key)} in ${path} (closest: ${closestFirst(key, [...flags.filter((f) => f.name !== 'config').map((f) => f.name), 'waivers']).slice(0, 3).join(', ')})`)
    values[key] = flag.kind === 'flag' ? value === true : flag.kind === 'list' ? (Array.isArray(value) ? value.map(String) : String(value).split(',')) : String(value)
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
    return { check, reason }
  })
}

/** A path as one word of a shell command. */
const shellWord = (text: string) => (/^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`)

/** The run's --help: what it does and its flags. */
export function runHelp(): string {
  return ['Usage: ipts-conformance [run] [flags]', '', 'Runs the conformance suite against a deployment, or the embedded reference server without --base-url.', '', ...flagsHelp(flags)].join('\n')
}
