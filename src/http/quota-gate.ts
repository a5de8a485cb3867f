/** Per API key, the moment before which no request with that key may be sent: set by a 429's Retry-After, shared by every request of the client. */
export class QuotaGate {
  private readonly openAt = new Map<string, number>()

  /** Keeps the key closed until `until` (epoch ms), or longer if an earlier 429 asked for more. */
  close(key: string, until: number): void {
    this.openAt.set(key, Math.max(until, this.openAt.get(key) ?? 0))
  }

  /** Milliseconds until the key may be used again; 0 when it is open. */
  remainingMs(key: string, now = Date.now()): number {
    const until = this.openAt.get(key)
    if (until === undefined) return 0
    if (until <= now) {
      this.openAt.delete(key)
      return 0
    }
    return until - now
  }
}
