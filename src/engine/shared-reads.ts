import { ERROR_CODES } from '../core/errors.js'
import type { Exchange } from '../http/exchange.js'
import { isTransient } from '../http/retry.js'

/**
 * The reads the checks of one run share: the same safe request (an operation, its inputs, its headers) asked for by
 * several checks is sent once, and its answer handed to each. Every exchange of the run is judged by every rule that
 * applies to it, so one answer serves every check as well as several would, for fewer requests to the deployment.
 * Each shared exchange is judged and logged once, as the first asker's. A read whose every attempt was transient (502,
 * 503, 504), and a result whose computing met one, is not kept: the checks waiting on it are not assessed, and a check
 * that asks later reads it again.
 */
export class SharedReads {
  private readonly reads = new Map<string, Promise<Exchange>>()
  private readonly results = new Map<string, Promise<unknown>>()
  /** Every exchange sent for a shared read, with the check that first asked for it, in the order they were sent. */
  readonly exchanges: { exchange: Exchange; sentBy: string }[] = []

  /** A result several checks compute alike (a list's walk), computed once by the first to ask, with its requests. */
  once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let result = this.results.get(key) as Promise<T> | undefined
    if (!result) {
      result = compute()
      this.results.set(key, result)
      const computed = result
      computed.catch((error: unknown) => {
        if ((error as { code?: string }).code === ERROR_CODES.checkNotRun && this.results.get(key) === computed)
          this.results.delete(key)
      })
    }
    return result
  }

  /** Resolves once every shared read has its answer (or its error): before they are judged and logged. */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.reads.values()])
  }

  read(key: string, askedBy: string, send: () => Promise<Exchange>): Promise<Exchange> {
    let reading = this.reads.get(key)
    if (!reading) {
      const entry = { exchange: undefined as unknown as Exchange, sentBy: askedBy }
      this.exchanges.push(entry)
      const sent = send().then((exchange) => {
        if (isTransient(exchange.response?.status) && this.reads.get(key) === sent) this.reads.delete(key)
        return (entry.exchange = exchange)
      })
      reading = sent
      this.reads.set(key, reading)
    }
    return reading
  }
}
