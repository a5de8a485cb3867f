/**
 * Every error the suite raises on purpose, in one place. Code branches on `code`, which survives module and worker
 * boundaries where instanceof does not.
 */
export const ERROR_CODES = {
  usage: 'IPTS_USAGE',
  profile: 'IPTS_PROFILE',
  targetUnreachable: 'IPTS_TARGET_UNREACHABLE',
  checkFailed: 'IPTS_CHECK_FAILED',
  checkSkipped: 'IPTS_CHECK_SKIPPED',
  checkNotRun: 'IPTS_CHECK_NOT_RUN',
} as const

/** The codes of errors a user can fix: one line on stderr and exit 2, never a stack trace. */
const USER_FIXABLE: ReadonlySet<string> = new Set([
  ERROR_CODES.usage,
  ERROR_CODES.profile,
  ERROR_CODES.targetUnreachable,
])

export function isUserFixable(error: unknown): error is Error {
  return USER_FIXABLE.has((error as { code?: string } | undefined)?.code ?? '')
}

/** A mistake in how the tool was called: one line naming the flag, exit 2. */
export class UsageError extends Error {
  readonly code = ERROR_CODES.usage
  override readonly name = 'UsageError'
}

/**
 * A profile that cannot be used: one line naming where it is (the file, or the flag that named it) and the key; the CLI
 * exits 2 with it.
 */
export class ProfileError extends Error {
  readonly code = ERROR_CODES.profile
  override readonly name = 'ProfileError'
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`)
  }
}

/** Raised when the target does not answer at all; the CLI maps it to exit 2. */
export class TargetUnreachableError extends Error {
  readonly code = ERROR_CODES.targetUnreachable
  override readonly name = 'TargetUnreachableError'
}
