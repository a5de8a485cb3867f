import { allowances } from '../reference/allowances/index.js'
import { faults } from '../reference/faults/index.js'
import type { AllowanceName } from '../reference/allowance-names.js'
import type { FaultName } from '../reference/fault-names.js'
import { broughtByFaults, referenceBehaviours } from '../reference/named-behaviours.js'
import { startReferenceServer } from '../reference/server.js'
import { realtimeFacts } from '../reference/realtime.js'
import { UsageError } from '../core/errors.js'
import { flagsHelp, parseFlags, validateFlag, type Flag } from './flags.js'
import { referenceSignHelp } from './reference-sign.js'

const referenceFlags: readonly Flag[] = [
  {
    name: 'port',
    kind: 'int',
    min: 0,
    max: 65535,
    default: '0',
    help: 'port to listen on (0: a free port; the URL is printed)',
  },
  { name: 'host', kind: 'text', default: '127.0.0.1', help: 'address to listen on' },
  { name: 'fault', kind: 'list', help: 'switch on a named fault (repeatable; --list names them)' },
  { name: 'allowance', kind: 'list', help: 'switch on a named allowance (repeatable; --list names them)' },
  { name: 'quota', kind: 'int', min: 1, max: 1_000_000, help: 'requests each key may make per window before a 429' },
  {
    name: 'quota-window-ms',
    kind: 'int',
    min: 1,
    max: 3_600_000,
    default: '1000',
    help: 'the quota window in milliseconds (with --quota)',
  },
  { name: 'latency-ms', kind: 'int', min: 0, max: 600_000, help: 'added before every response' },
  {
    name: 'seed',
    kind: 'int',
    min: -2147483648,
    max: 2147483647,
    help: 'the same seed gives the same keys, receipts and cursors (default: random)',
  },
  { name: 'list', kind: 'flag', help: 'name every fault and allowance with its description, and exit' },
]

export interface ReferenceCliOptions {
  list: boolean
  port: number
  host: string
  faults: FaultName[]
  allowances: AllowanceName[]
  quota?: { limit: number; windowMs: number }
  latencyMs?: number
  seed: number
}

export function referenceHelp(): string {
  return [
    'Usage: ipts-conformance reference [flags]',
    '',
    'Serves the reference server standalone until SIGINT or SIGTERM. Once listening it prints one JSON line:',
    '{"url", "apiKey", "restrictedApiKey", "trader", "intents": [{"hash", "receipt"}, …], "realtime": {"ticket",',
    '"websocket", "open", "channels"}} (a ticket with X-API-Key, then the channel opened with the receipt in a message).',
    '',
    referenceSignHelp(),
    '',
    ...flagsHelp(referenceFlags),
  ].join('\n')
}

export function parseReferenceArgs(argv: readonly string[]): ReferenceCliOptions {
  const { values, positionals } = parseFlags(argv, referenceFlags)
  if (positionals.length > 0)
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[0])} (flags start with --; see reference --help)`,
    )
  const checked = (name: string) => {
    const flag = referenceFlags.find((f) => f.name === name)!
    return validateFlag(flag, values[name] ?? flag.default)
  }
  if (values['quota-window-ms'] !== undefined && values.quota === undefined)
    throw new UsageError('--quota-window-ms needs --quota')
  const limit = checked('quota') as number | undefined
  return {
    list: checked('list') === true,
    port: checked('port') as number,
    host: checked('host') as string,
    // Typed as the catalogue's names: referenceBehaviours refuses an unknown one as a usage error.
    faults: (checked('fault') as FaultName[] | undefined) ?? [],
    allowances: (checked('allowance') as AllowanceName[] | undefined) ?? [],
    quota: limit === undefined ? undefined : { limit, windowMs: checked('quota-window-ms') as number },
    latencyMs: checked('latency-ms') as number | undefined,
    seed: (checked('seed') as number | undefined) ?? Math.floor(Math.random() * 2 ** 31),
  }
}

/** `ipts-conformance reference`: serves until SIGINT or SIGTERM, then closes and exits 0. */
export async function reference(options: ReferenceCliOptions): Promise<number> {
  if (options.list) {
    process.stdout.write(`${behaviourList()}\n`)
    return 0
  }
  const behaviours = referenceBehaviours(options.faults, options.allowances)
  let server
  try {
    server = await startReferenceServer({
      behaviours,
      ...broughtByFaults(behaviours, { quota: options.quota }),
      latencyMs: options.latencyMs,
      seed: options.seed,
      host: options.host,
      port: options.port,
    })
  } catch (error) {
    throw new UsageError(
      `--port ${options.port} on --host ${options.host}: cannot listen (${(error as { code?: string }).code ?? (error as Error).message})`,
    )
  }
  const { data } = server
  const ready = {
    url: server.baseUrl,
    apiKey: data.apiKey,
    restrictedApiKey: data.restrictedApiKey,
    trader: data.trader,
    intents: data.intents.map((i) => ({ hash: i.hash, receipt: i.receipt })),
    realtime: realtimeFacts(),
  }
  let stop = () => {}
  const stopped = new Promise<void>((resolve) => (stop = resolve))
  process.once('SIGINT', stop).once('SIGTERM', stop)
  process.stdout.write(`${JSON.stringify(ready)}\n`)
  await stopped
  process.off('SIGINT', stop).off('SIGTERM', stop)
  await server.close()
  return 0
}

function behaviourList(): string {
  const width = Math.max(...[...faults, ...allowances].map((b) => b.name.length))
  return [
    'Faults (each breaks exactly the checks it names):',
    ...faults.map((f) => `  ${f.name.padEnd(width)}  ${f.description} (breaks ${f.breaks.join(', ')})`),
    '',
    'Allowances (behaviour the contract permits):',
    ...allowances.map((a) => `  ${a.name.padEnd(width)}  ${a.description} (permitted by ${a.permittedBy})`),
  ].join('\n')
}
