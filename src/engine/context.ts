import { setMaxListeners } from 'node:events'
import { fillPath, operation, operationAt, type OperationId } from '../contract/operations.js'
import { validateAgainst } from '../contract/schemas.js'
import { RUN_CUT_CODES, type HttpClient } from '../http/client.js'
import type { Exchange } from '../http/exchange.js'
import type { RunSettings } from '../core/settings.js'
import { NOT_ANSWERING } from '../http/circuit-breaker.js'
import { unansweredAs } from '../http/transport-errors.js'
import { missingInputReasons, missingNeed } from '../checks/needs.js'
import type { SharedReads } from './shared-reads.js'
import { transientOnly } from './server-errors.js'
import {
  CheckFailure,
  CheckNotRun,
  CheckSkipped,
  type Auth,
  type CallOptions,
  type CheckContext,
  type Need,
  type WriteAnswer,
} from '../checks/types.js'
import type { LifecycleStep, SentWrite } from '../core/report.js'
import { valueAt } from '../core/json-pointer.js'
import type { SignedBodySource } from '../generators/signed-bodies.js'
import type { GrowingSecrets } from '../http/secrets.js'
import { openWebSocket, type ChannelSocket } from '../http/websocket.js'
import { WRITES_NOT_ASSESSABLE, type WriteOperation } from '../profile/profile.js'

/** The placeholder of the nth receipt a write returned, in everything the run writes. */
export const WRITE_RECEIPT_PLACEHOLDER = '$IPTS_WRITE_RECEIPT_'

/**
 * What a write check's context needs: where signed bodies come from, the run's secrets (receipts are learned), its
 * declared submissions.
 */
export interface WriteSupport {
  bodies: SignedBodySource
  secrets: GrowingSecrets
  allowance: number
}

/**
 * The exchange, for a check to judge. A request the circuit breaker did not send or cut off, or one the run's own
 * interruption or time bound did, and a response that cannot be judged (a body in a coding the suite cannot decode, a
 * redirect not followed): the check that needed it ends 'not run', never failed by an answer that never came.
 */
function judgeable(exchange: Exchange): Exchange {
  const code = exchange.error?.code
  if (code === NOT_ANSWERING || (code !== undefined && RUN_CUT_CODES.has(code)))
    throw new CheckNotRun(exchange.error!.message, exchange)
  if (exchange.response?.notJudged !== undefined)
    throw new CheckNotRun(
      `${exchange.request.method} ${new URL(exchange.request.url).pathname} got ${exchange.response.notJudged}`,
      exchange,
    )
  return exchange
}

/**
 * A check's context, and end(): called once the check has ended, it stops the check's requests (those not yet sent are
 * not sent, those in flight are cut off, a property's prefetched inputs among them) and resolves when every one has
 * settled, so that no request outlives its check.
 */
export function createCheckContext(
  settings: RunSettings,
  client: HttpClient,
  sharing?: { reads: SharedReads; checkId: string },
  writing?: WriteSupport,
): { ctx: CheckContext; end(): Promise<void>; writes: SentWrite[]; lifecycle: LifecycleStep[] } {
  // In the order the requests were sent, not answered, so that what the report shows does not depend on timing.
  const sent: (Exchange | undefined)[] = []
  const ended = new AbortController()
  // Every request and wait of the check listens to it, up to --concurrency at once and each removed when it settles.
  setMaxListeners(0, ended.signal)
  const pending = new Set<Promise<Exchange>>()

  const need = (what: Need) => {
    if (missingNeed(settings, [what])) throw new CheckSkipped(missingInputReasons[what])
  }

  const headersFor = (
    auth: Auth = 'full',
    extra: Record<string, string> = {},
    withoutAccept = false,
  ): Record<string, string> => {
    const headers: Record<string, string> = withoutAccept ? {} : { accept: 'application/json' }
    if (auth === 'full') {
      need('apiKey')
      headers['x-api-key'] = settings.apiKey!
    } else if (auth === 'restricted') {
      need('restrictedApiKey')
      headers['x-api-key'] = settings.restrictedApiKey!
    } else if (typeof auth === 'object') headers['x-api-key'] = auth.key
    return { ...headers, ...extra }
  }

  const send = async (
    path: string,
    headers: Record<string, string>,
    retry: boolean | undefined,
    operationId?: OperationId,
    write?: { method: string; body: string },
  ) => {
    const order = sent.push(undefined) - 1
    // A path sent as it is still counts against its operation's circuit breaker, though the exchange names no
    // operation.
    const sending = client.request({
      ...write,
      path,
      headers,
      retry,
      operation: operationId ?? operationAt(path),
      signal: ended.signal,
    })
    pending.add(sending)
    const exchange = await sending.finally(() => pending.delete(sending))
    if (operationId) exchange.operation = operationId
    // An exchange that settles after its check has ended is no part of the check's evidence.
    if (!ended.signal.aborted) sent[order] = exchange
    judgeable(exchange)
    if (!write) notAssessedIfTransient(exchange)
    return exchange
  }

  /**
   * A safe read whose every attempt was a 502, 503 or 504 leaves the check that needed it not assessed (the 5xx
   * policy).
   */
  const notAssessedIfTransient = (exchange: Exchange) => {
    const reason = transientOnly(exchange)
    if (reason) throw new CheckNotRun(reason, exchange)
  }

  /**
   * A read other checks of the run may ask for too: sent once for the run, not tied to this check's end (another check
   * may be waiting on it). Without a run to share with (a vitest worker), it is this check's own request.
   */
  const sendShared = async (path: string, headers: Record<string, string>, operationId: OperationId) => {
    if (!sharing) return send(path, headers, undefined, operationId)
    const key = `${path} ${JSON.stringify(Object.entries(headers).sort())}`
    const exchange = await sharing.reads.read(key, sharing.checkId, () =>
      client.get({ path, headers, operation: operationId }).then((e) => ({ ...e, operation: operationId })),
    )
    judgeable(exchange)
    notAssessedIfTransient(exchange)
    return exchange
  }

  const defaultParams = (id: OperationId, given: Record<string, string> = {}): Record<string, string> => {
    const template = operation(id).template
    const params = { ...given }
    if (template.includes('{hash}') && params.hash === undefined) {
      need('intent')
      params.hash = settings.intent!.hash
    }
    if (template.includes('{address}') && params.address === undefined) {
      need('trader')
      params.address = settings.trader!
    }
    return params
  }

  const defaultQuery = (id: OperationId, given: Record<string, string | undefined> = {}): URLSearchParams => {
    const query = new URLSearchParams()
    if (id === 'getIntentStatus' && !('receipt' in given)) {
      need('intent')
      query.set('receipt', settings.intent!.receipt)
    }
    for (const [name, value] of Object.entries(given)) if (value !== undefined) query.set(name, value)
    return query
  }

  const fail = (message: string, details?: CheckFailure['details']): never => {
    throw new CheckFailure(message, details)
  }

  const inputs: CheckContext['inputs'] = {}
  const sockets: ChannelSocket[] = []

  const writeOperations = settings.profile?.values.writes?.operations ?? {}
  const writes: SentWrite[] = []
  const lifecycle: LifecycleStep[] = []
  /** No write is sent without the opt-in and the profile's writes, whatever a check asks. */
  const writeOperation = (name: string): WriteOperation => {
    if (!settings.allowWrites || !writing || !writeOperations[name]) throw new CheckSkipped(WRITES_NOT_ASSESSABLE)
    return writeOperations[name]
  }
  const signed = async (bodies: WriteOperation['bodies'], where: string, fill?: (argument: string) => string) => {
    const result = await writing!.bodies.next(bodies, where, fill)
    if ('problem' in result) throw new CheckSkipped(`no signed body: ${result.problem}`)
    return result.body
  }
  const learnReceipt = (receipt: unknown): string | undefined =>
    typeof receipt === 'string' && receipt !== ''
      ? writing!.secrets.learn(receipt, WRITE_RECEIPT_PLACEHOLDER)
      : undefined

  const ctx: CheckContext = {
    settings,
    get exchanges() {
      return sent.filter((exchange): exchange is Exchange => exchange !== undefined)
    },
    inputs,
    countInputs(phase, count) {
      inputs[phase] = (inputs[phase] ?? 0) + count
    },
    call(id, options: CallOptions = {}) {
      const path = fillPath(operation(id).template, defaultParams(id, options.params))
      const query = defaultQuery(id, options.query).toString()
      const target = query ? `${path}?${query}` : path
      const headers = headersFor(options.auth, options.headers, options.withoutAccept)
      return options.shared && options.retry !== false
        ? sendShared(target, headers, id)
        : send(target, headers, options.retry, id)
    },
    quotaRefusalSince(since) {
      return client.quotaRefusalSince(since)
    },
    once(key, compute) {
      return sharing ? sharing.reads.once(key, compute) : compute()
    },
    get(path, options = {}) {
      return send(path, headersFor(options.auth, options.headers), options.retry)
    },
    async request(method, path, options = {}) {
      if (method === 'GET') return send(path, headersFor(options.auth), undefined)
      const headers = headersFor(options.auth, options.body === undefined ? {} : { 'content-type': 'application/json' })
      const exchange = await send(path, headers, undefined, undefined, { method, body: options.body ?? '' })
      notAssessedIfTransient(exchange)
      return exchange
    },
    async openSocket(url) {
      const socket = await openWebSocket(url, {}, undefined, ended.signal)
      sockets.push(socket)
      return socket
    },
    get sockets() {
      return sockets.map((socket) => socket.exchange)
    },
    signedBody(name) {
      return signed(writeOperation(name).bodies, `writes.operations.${name}.bodies`)
    },
    cancellationBody(name, fill) {
      return signed(writeOperation(name).cancels!.bodies, `writes.operations.${name}.cancels.bodies`, fill)
    },
    async write(name, body, idempotencyKey, step) {
      const { method, statusIdentifier, receipt, duplicate, ...op } = writeOperation(name)
      const path = step?.path ?? op.path
      if (writes.length >= writing!.allowance)
        throw new Error(`a write check sent more than the ${writing!.allowance} submissions it declares`)
      const headers = headersFor('full', {
        ...step?.headers,
        'content-type': 'application/json',
        ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
      })
      const record: SentWrite = {
        operation: name,
        method,
        url: client.urlFor(path),
        idempotencyKey,
        status: null,
        attempts: 1,
      }
      writes.push(record)
      const exchange = await send(path, headers, undefined, undefined, { method, body })
      // The write is an operation of the contract (relayed), named by the profile: every-response rules judge it.
      exchange.operation = name
      const { response } = exchange
      Object.assign(record, { status: response?.status ?? null, attempts: exchange.retries.length + 1 })
      const json = response?.json
      // A receipt is kept out of what is written even in an answer that was not accepted.
      const receiptPlaceholder = receipt === undefined ? undefined : learnReceipt(valueAt(json, receipt))
      const accepted =
        response !== undefined &&
        ((step?.accepted ?? op.accepted)?.includes(response.status) ??
          (response.status >= 200 && response.status < 300))
      if (!accepted) return { exchange, accepted }
      const answer: WriteAnswer = {
        exchange,
        accepted,
        duplicate: duplicate === undefined ? undefined : valueAt(json, duplicate),
      }
      const identifier = valueAt(json, statusIdentifier)
      if (typeof identifier === 'string' || typeof identifier === 'number')
        record.statusIdentifier = answer.statusIdentifier = String(identifier)
      if (receiptPlaceholder) {
        answer.receipt = valueAt(json, receipt!) as string
        record.receipt = receiptPlaceholder
      }
      if (typeof answer.duplicate === 'boolean') record.duplicate = answer.duplicate
      return answer
    },
    fail,
    skip(reason) {
      throw new CheckSkipped(reason)
    },
    expectSchema(schema, exchange) {
      const { response } = exchange
      if (!response) return fail(unansweredAs(exchange.error), { exchange })
      if (response.json === undefined) return fail(`the body is ${response.jsonError}`, { exchange })
      const violations = validateAgainst(schema, response.json)
      if (violations.length > 0) {
        const first = violations[0]!
        fail(`${schema}${first.instancePath || ''} ${first.message} (${first.keyword} at ${first.schemaPath})`, {
          exchange,
          violations,
        })
      }
    },
    lifecycleStep(step, receipt) {
      // A receipt the run's writes were handed is shown as theirs; any other is redacted with the run's secrets.
      const shown = receipt && writing ? writing.secrets.learn(receipt, WRITE_RECEIPT_PLACEHOLDER) : receipt
      lifecycle.push(shown ? { ...step, receipt: shown } : step)
    },
  }
  return {
    ctx,
    writes,
    lifecycle,
    async end() {
      ended.abort()
      for (const socket of sockets) socket.close()
      await Promise.allSettled([...pending])
    },
  }
}
