/** A profile that cannot be used: one line naming the key; the CLI exits 2 with it. */
export class ProfileError extends Error {
  readonly code = 'IPTS_USAGE'
  constructor(key: string, problem: string) {
    super(`--profile: ${key} ${problem}`)
    this.name = 'ProfileError'
  }
}
