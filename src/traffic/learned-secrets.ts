import { receiptsSent } from '../checks/realtime-messages.js'
import type { Exchange } from '../http/exchange.js'
import type { Secret } from '../http/secrets.js'
import { valueAt } from '../core/json-pointer.js'
import { writeOperationAt, type ProfileValues } from '../profile/profile.js'

/**
 * A value that holds a placeholder of the reports (a HAR the suite wrote: '$IPTS_API_KEY', '${IPTS_API_KEY}AB_1',
 * '[part of $IPTS_INTENT_RECEIPT]x', '[withheld: holds $IPTS_API_KEY, encoded]'): what it hid is not there to hide.
 */
const PLACEHOLDER = /\$\{?IPTS_[A-Z0-9_]+/
/**
 * Shorter values are not learned: replacing every occurrence of a few characters would rewrite the report's own text,
 * and traffic carries such values only as garbage a client sent on purpose (the suite's own property checks do).
 */
const MIN_SECRET_LENGTH = 8
/**
 * What a broken client sends where a key should be (a variable that was never set, an object printed as text): not a
 * secret, and learning it would rewrite every "undefined" of the report into a placeholder. The shorter junk words
 * (null, true, false, NaN) and blanks are below MIN_SECRET_LENGTH already.
 */
const JUNK = /^(?:undefined|\[object \w+\])$/i

/**
 * How many distinct keys and receipts are remembered at a time (docs/traffic.md): the most recently seen. A proxy left
 * running for days meets ever new receipts; remembering each one would grow without bound, and redaction's detector
 * is built over the whole list.
 */
export const SECRETS_REMEMBERED = 512

/**
 * Told once the set is full, before the least recently seen half is forgotten: `known`, every secret remembered then;
 * `forgotten`, those about to go. What holds text to be written later redacts it now with what it would lose.
 */
export type BeforeForgetting = (known: readonly Secret[], forgotten: readonly Secret[]) => void

/**
 * The keys and receipts recorded traffic carries, learned from the requests (X-API-Key, the receipt query parameter),
 * the answers of the profile's writes and the messages a WebSocket sent to open channels (its realtime section), each
 * with a placeholder of its own: the first key is $IPTS_API_KEY, the next $IPTS_API_KEY_2, and so on. At most
 * SECRETS_REMEMBERED at a time: a secret seen again keeps its placeholder and counts as seen last; once the set is
 * full, the least recently seen half is forgotten at once (one redaction of what is held for each half, not one per
 * secret), and one of them seen again afterwards is learned anew, with the next number.
 */
export class LearnedSecrets {
  /** value → placeholder, in the order last seen (a Map iterates in insertion order). */
  private readonly known = new Map<string, string>()
  private readonly numbered = new Map<string, number>()
  private readonly listeners: BeforeForgetting[] = []
  private cached: Secret[] | undefined

  /**
   * profile: the deployment's writes, whose answers hand out receipts (at the profile's receipt pointer), and its
   * realtime section, whose opening message carries one.
   */
  constructor(private readonly profile?: ProfileValues) {}

  get size(): number {
    return this.known.size
  }

  /** listener: told before secrets are forgotten, with every secret known then, so that it can redact what it holds. */
  beforeForgetting(listener: BeforeForgetting): void {
    this.listeners.push(listener)
  }

  learn(exchange: Pick<Exchange, 'request' | 'response' | 'webSocketMessages'>): void {
    const key = exchange.request.headers['x-api-key']
    if (key) this.add(key, 'IPTS_API_KEY')
    // An empty receipt is too short to be a secret (add).
    for (const receipt of new URL(exchange.request.url).searchParams.getAll('receipt'))
      this.add(receipt, 'IPTS_INTENT_RECEIPT')
    const write = writeOperationAt(this.profile, exchange.request.method, exchange.request.url)
    const pointer = write && this.profile!.writes!.operations[write]!.receipt
    const receipt = pointer && exchange.response ? valueAt(exchange.response.json, pointer) : undefined
    if (typeof receipt === 'string') this.add(receipt, 'IPTS_WRITE_RECEIPT')
    const realtime = this.profile?.realtime
    if (realtime && exchange.webSocketMessages)
      for (const sent of receiptsSent(realtime, exchange.webSocketMessages)) this.add(sent, 'IPTS_INTENT_RECEIPT')
  }

  /**
   * The secrets remembered, the same list until one is learned or forgotten (redaction builds its detector once per
   * list).
   */
  list(): Secret[] {
    this.cached ??= [...this.known].map(([value, placeholder]) => ({ value, placeholder }))
    return this.cached
  }

  private add(value: string, name: string): void {
    const placeholder = this.known.get(value)
    if (placeholder !== undefined) {
      // Seen again: last in the order, the list itself unchanged (its order does not matter to redaction).
      this.known.delete(value)
      this.known.set(value, placeholder)
      return
    }
    if (value.trim().length < MIN_SECRET_LENGTH || JUNK.test(value.trim()) || PLACEHOLDER.test(value)) return
    const number = (this.numbered.get(name) ?? 0) + 1
    this.numbered.set(name, number)
    this.known.set(value, `$${name}${number === 1 ? '' : `_${number}`}`)
    this.cached = undefined
    if (this.known.size > SECRETS_REMEMBERED) this.forgetLeastRecent()
  }

  private forgetLeastRecent(): void {
    // In the order last seen: the cached list may hold an older order.
    const known = [...this.known].map(([value, placeholder]) => ({ value, placeholder }))
    const forgotten = known.slice(0, known.length - SECRETS_REMEMBERED / 2)
    for (const listener of this.listeners) listener(known, forgotten)
    for (const { value } of forgotten) this.known.delete(value)
    this.cached = undefined
  }
}
