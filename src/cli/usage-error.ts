/** A mistake in how the tool was called: one line naming the flag, exit 2. */
export class UsageError extends Error {
  readonly code = 'IPTS_USAGE'
}
