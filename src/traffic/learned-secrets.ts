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
 * secret, and learning it would rewrite every "undefined" and "null" of the report into a placeholder.
 */
const JUNK = /^\s*$|^(?:undefined|null|nan|true|false|\[object \w+\])$/i

/**
 * The keys and receipts recorded traffic carries, learned from the requests (X-API-Key, the receipt query parameter),
 * each with a placeholder of its own: the first key is $IPTS_API_KEY, the next $IPTS_API_KEY_2, and so on.
 */
export class LearnedSecrets {
  private readonly keys = new Map<string, string>()
  private readonly receipts = new Map<string, string>()
  private readonly writeReceipts = new Map<string, string>()
  private cached: Secret[] | undefined

  /** profile: the deployment's writes, whose answers hand out receipts (at the profile's receipt pointer). */
  constructor(private readonly profile?: ProfileValues) {}

  learn(exchange: Pick<Exchange, 'request' | 'response'>): void {
    const key = exchange.request.headers['x-api-key']
    if (key) this.add(this.keys, key, 'IPTS_API_KEY')
    for (const receipt of new URL(exchange.request.url).searchParams.getAll('receipt'))
      if (receipt) this.add(this.receipts, receipt, 'IPTS_INTENT_RECEIPT')
    const write = writeOperationAt(this.profile, exchange.request.method, exchange.request.url)
    const pointer = write && this.profile!.writes!.operations[write]!.receipt
    const receipt = pointer && exchange.response ? valueAt(exchange.response.json, pointer) : undefined
    if (typeof receipt === 'string') this.add(this.writeReceipts, receipt, 'IPTS_WRITE_RECEIPT')
  }

  list(): Secret[] {
    this.cached ??= [...this.keys, ...this.receipts, ...this.writeReceipts].map(([value, placeholder]) => ({
      value,
      placeholder,
    }))
    return this.cached
  }

  private add(known: Map<string, string>, value: string, name: string): void {
    if (
      known.has(value) ||
      value.trim().length < MIN_SECRET_LENGTH ||
      JUNK.test(value.trim()) ||
      PLACEHOLDER.test(value)
    )
      return
    known.set(value, `$${name}${known.size === 0 ? '' : `_${known.size + 1}`}`)
    this.cached = undefined
  }
}
