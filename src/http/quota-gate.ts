/**
 * Per API key, the moment before which no request with that key may be sent: set by a 429's Retry-After, shared by
 * every request of the run (the slots live on a SharedArrayBuffer, see shared-state.ts).
 */
export class QuotaGate {
  constructor(private readonly slots = new BigInt64Array(new SharedArrayBuffer(8 * 64))) {}

  /** Keeps the key closed until `until` (epoch ms), or longer if an earlier 429 asked for more. */
  close(key: string, until: number): void {
    const slot = this.slotOf(key)
    const wanted = BigInt(Math.ceil(until))
    for (;;) {
      const current = Atomics.load(this.slots, slot)
      if (current >= wanted || Atomics.compareExchange(this.slots, slot, current, wanted) === current) return
    }
  }

  /** Milliseconds until the key may be used again; 0 when it is open. */
  remainingMs(key: string, now = Date.now()): number {
    return Math.max(0, Number(Atomics.load(this.slots, this.slotOf(key))) - now)
  }

  private slotOf(key: string): number {
    let hash = 0
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
    return (hash >>> 0) % this.slots.length
  }
}
