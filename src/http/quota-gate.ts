/**
 * The quota of every request of the run: a 429 whose scope is not the API key's (the client's address, the project, or
 * unnamed).
 */
export const EVERY_REQUEST = Symbol('every request of the run')

/**
 * Per quota, the moment before which no request that shares it may be sent: set by a 429's Retry-After, shared by
 * every request of the run (the slots live on a SharedArrayBuffer, see shared-state.ts). The first slot is the run's
 * own quota, which holds every request; API keys are hashed onto the others.
 */
export class QuotaGate {
  constructor(private readonly slots = new BigInt64Array(new SharedArrayBuffer(8 * 64))) {}

  /** Keeps the quota closed until `until` (epoch ms), or longer if an earlier 429 asked for more. */
  close(quota: string | typeof EVERY_REQUEST, until: number): void {
    const slot = quota === EVERY_REQUEST ? 0 : this.slotOf(quota)
    const wanted = BigInt(Math.ceil(until))
    for (;;) {
      const current = Atomics.load(this.slots, slot)
      if (current >= wanted || Atomics.compareExchange(this.slots, slot, current, wanted) === current) return
    }
  }

  /**
   * Milliseconds until a request with this key may be sent again; 0 when neither its key's quota nor the run's is
   * closed.
   */
  remainingMs(key: string, now = Date.now()): number {
    const until = Math.max(Number(Atomics.load(this.slots, 0)), Number(Atomics.load(this.slots, this.slotOf(key))))
    return Math.max(0, until - now)
  }

  private slotOf(key: string): number {
    let hash = 0
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
    return 1 + ((hash >>> 0) % (this.slots.length - 1))
  }
}
