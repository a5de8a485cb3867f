/** Atomics.waitAsync (Node 16+), missing from the ES2022 library typings this project compiles against. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(array: Int32Array<SharedArrayBuffer>, index: number, value: number): { value: unknown }
  }
).waitAsync

/** At most `limit` tasks at once across every thread that shares `inFlight` (one Int32 on a SharedArrayBuffer). */
export class Limiter {
  constructor(
    private readonly limit: number,
    private readonly inFlight = new Int32Array(new SharedArrayBuffer(4)),
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire()
    try {
      return await task()
    } finally {
      Atomics.sub(this.inFlight, 0, 1)
      Atomics.notify(this.inFlight, 0, 1)
    }
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const current = Atomics.load(this.inFlight, 0)
      if (current < this.limit) {
        if (Atomics.compareExchange(this.inFlight, 0, current, current + 1) === current) return
        continue
      }
      await waitAsync(this.inFlight, 0, current).value
    }
  }
}
