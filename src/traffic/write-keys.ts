import { createHash } from 'node:crypto'
import type { ClientRuleBreach } from '../core/report.js'

/** How many breaches a report names; the rest are counted in the last one. */
const BREACHES_NAMED = 10

/**
 * How many pairings of each kind are remembered: the most recent ones. A client retries a signed write soon after it
 * first sent it; remembering every write of a proxy left running for days would grow with each one.
 */
export const WRITES_REMEMBERED = 20_000

/**
 * IDEM-SAME-BODY in recorded traffic, a rule for the client: "The same key is kept with the same signed body".
 * Remembers, per write operation, which key each body went with and which body each key, and names each pairing that
 * breaks it. Bodies are known by their digest only; the last WRITES_REMEMBERED pairings are remembered, older ones
 * forgotten.
 */
export class WriteKeys {
  private readonly keyOfBody = new Map<string, string>()
  private readonly bodyOfKey = new Map<string, string>()
  private readonly found: ClientRuleBreach[] = []
  private uncounted = 0

  /** One recorded write, its operation named by the profile; a write without a key or a recorded body is not paired. */
  record(operation: string, key: string | undefined, body: string | undefined, where: string): void {
    if (key === undefined || body === undefined) return
    const digest = createHash('sha256').update(body).digest('hex')
    const keyBefore = this.keyOfBody.get(`${operation} ${digest}`)
    const bodyBefore = this.bodyOfKey.get(`${operation} ${key}`)
    if (keyBefore !== undefined && keyBefore !== key)
      this.breach(
        `${operation}: ${where} sent a signed body again under Idempotency-Key ${JSON.stringify(key)}; it was sent under ${JSON.stringify(keyBefore)} before`,
      )
    else if (bodyBefore !== undefined && bodyBefore !== digest)
      this.breach(`${operation}: ${where} sent Idempotency-Key ${JSON.stringify(key)} with another body than before`)
    remember(this.keyOfBody, `${operation} ${digest}`, keyBefore ?? key)
    remember(this.bodyOfKey, `${operation} ${key}`, bodyBefore ?? digest)
  }

  breaches(): ClientRuleBreach[] {
    const named = [...this.found]
    if (this.uncounted > 0) named.push({ requirement: 'IDEM-SAME-BODY', message: `and ${this.uncounted} more` })
    return named
  }

  private breach(message: string): void {
    if (this.found.length < BREACHES_NAMED) this.found.push({ requirement: 'IDEM-SAME-BODY', message })
    else this.uncounted++
  }
}

/**
 * Sets the pairing, as the most recent one, and forgets the oldest past WRITES_REMEMBERED (a Map iterates in insertion
 * order).
 */
function remember(pairs: Map<string, string>, name: string, value: string): void {
  pairs.delete(name)
  pairs.set(name, value)
  if (pairs.size > WRITES_REMEMBERED) pairs.delete(pairs.keys().next().value!)
}
