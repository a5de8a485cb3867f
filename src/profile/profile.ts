import type { OperationId } from '../contract/operations.js'
import { stepPathPattern, type ChainedStep } from './chained-step.js'
import type { DescriptionFindings } from './judge-description.js'
import type { RealtimeSection } from './realtime.js'

/**
 * The keys of a deployment profile (specs/profile.schema.json); each one stated assesses requirements the contract
 * leaves "not shown".
 */
export const PROFILE_KEYS = [
  'restrictedKey',
  'pagination',
  'intentStates',
  'marketStatuses',
  'serviceSource',
  'errorCodes',
  'requiredMembers',
  'configSchema',
  'quota',
  'openapi',
  'writes',
  'realtime',
] as const

export type ProfileKey = (typeof PROFILE_KEYS)[number]

export type ListOperationId = Extract<OperationId, 'listMarkets' | 'listTraderBalances'>
export type ServiceSource = 'indexed' | 'automation' | 'live'

export interface PageSizeRule {
  minPageSize: number
  maxPageSize: number
  /** reject: 400 or 422 with an error body; clamp: served with at most maxPageSize items. */
  outOfRange: 'reject' | 'clamp'
}

export type WriteKind = 'action' | 'intent' | 'batch-intent' | 'cancellation'

/**
 * Where a write operation's signed bodies come from: files of pre-signed bodies, or a command that prints a fresh one
 * per call.
 */
export type SignedBodies = { files: string[] } | { command: string[] }

/** A relayed write operation as the profile states it (specs/profile.schema.json, $defs/writeOperation). */
export interface WriteOperation {
  kind: WriteKind
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  /** JSON Pointers into an accepted submission's body. */
  statusIdentifier: string
  receipt?: string
  duplicate?: string
  /** The statuses that mean accepted (default: any 2xx) and refused (default: any answer not accepted). */
  accepted?: number[]
  refused?: number[]
  /** The statuses that refuse a submission whose Idempotency-Key was used before with another signed body. */
  keyReuse?: { refused: number[] }
  /** GET path of the status operation, with {id} and {receipt}. */
  statusPath?: string
  bodies: SignedBodies
  /** For a cancellation: the chained step that cancels a new submission of an intake, and the states that end it. */
  cancels?: ChainedStep & { operation: string; state: string; terminalStates: string[] }
}

export type { ChainedStep }

/** The facts of a profile file, as written (paths as given). */
export interface ProfileValues {
  restrictedKey?: { refused?: OperationId[]; granted?: OperationId[] }
  pagination?: Partial<Record<ListOperationId, PageSizeRule>>
  intentStates?: string[]
  marketStatuses?: string[]
  serviceSource?: Partial<Record<OperationId, ServiceSource>>
  errorCodes?: string[]
  requiredMembers?: { Vault?: string[]; Market?: string[]; Balance?: string[]; PnL?: string[] }
  configSchema?: string
  quota?: { limit?: number; scope?: string }
  openapi?: string
  writes?: { keyPattern?: string; operations: Record<string, WriteOperation> }
  realtime?: RealtimeSection
}

/**
 * A loaded profile as it crosses to the suites: its values, and what was read from the files and URL they name. Plain
 * data.
 */
export interface Profile {
  /** Where it came from: a file path, the --config file, or the embedded reference's own profile. */
  source: string
  /**
   * The folder the profile's relative paths are read from (signed-body files and commands run there); the working
   * folder when undefined.
   */
  baseDir?: string
  values: ProfileValues
  /** The parsed JSON Schema of configSchema. */
  configSchema?: Record<string, unknown>
  /** Where the published description of openapi was read, and what the checks of VER-OPENAPI found in it. */
  openapi?: { source: string; findings: DescriptionFindings }
}

/** Whether the profile states the key; a check or rule that needs it is not assessable otherwise. */
export function stated(profile: Profile | undefined, key: ProfileKey): profile is Profile {
  return profile?.values[key] !== undefined
}

/** Why a check or rule that holds the target to a profile key is not assessed when the profile does not state it. */
export function notAssessableWithout(key: ProfileKey): string {
  return `not assessable without a deployment profile that states ${key} (--profile)`
}

/**
 * Why a check that sends writes is not assessed: it needs the profile's writes and the opt-in, without which no write
 * is sent.
 */
export const WRITES_NOT_ASSESSABLE = `${notAssessableWithout('writes')} and --allow-writes`

/** A profile value as evidence shows it. */
export function profileEvidence(
  profile: Profile,
  key: ProfileKey,
): { key: ProfileKey; value: unknown; source: string } {
  return { key, value: profile.values[key], source: profile.source }
}

/**
 * The name of the profile's write operation a request addressed (its method, and a path ending in the operation's or
 * sent by its chained cancellation), if any.
 */
export function writeOperationAt(values: ProfileValues | undefined, method: string, url: string): string | undefined {
  const path = new URL(url).pathname
  return Object.entries(values?.writes?.operations ?? {}).find(
    ([, op]) =>
      op.method === method.toUpperCase() &&
      (path.endsWith(op.path) || (op.cancels?.path !== undefined && stepPathPattern(op.cancels.path).test(path))),
  )?.[0]
}

/**
 * The profile's reading of "safe characters" for Idempotency-Key, when it states one (checked when the profile is
 * read).
 */
export function keyPatternOf(values: ProfileValues | undefined): RegExp | undefined {
  const pattern = values?.writes?.keyPattern
  return pattern === undefined ? undefined : new RegExp(pattern, 'u')
}
