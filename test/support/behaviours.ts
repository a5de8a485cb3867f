import type { ReferenceData } from '../../src/reference/data.js'
import type {
  Behaviour,
  ChannelOutput,
  ChannelSubscription,
  RefRequest,
  RefResponse,
} from '../../src/reference/types.js'

/** The reference, answering the first request for each config URL and key with a 503 (then as usual). */
export function firstConfigRequestUnavailable(retryAfter: string | undefined): Behaviour {
  const seen = new Set<string>()
  return {
    name: 'first-config-request-unavailable',
    description: 'The first request for each config URL and key gets a 503.',
    onResponse(response, request) {
      // The preflight's probes (src/runner/preflight.ts) send no Accept-Encoding and no check reads their answers.
      if (request.headers['accept-encoding'] === undefined) return
      const attempt = `${request.path}?${request.query} ${request.headers['x-api-key']}`
      if (request.path !== '/v1/config' || response.status !== 200 || seen.has(attempt)) return
      seen.add(attempt)
      response.status = 503
      response.body = {
        error: 'a dependency is temporarily unavailable',
        code: 'unavailable',
        requestId: response.headers['x-request-id'],
      }
      delete response.headers['x-service-source']
      if (retryAfter !== undefined) response.headers['retry-after'] = retryAfter
    },
  }
}

/** A request as its handler would see it: what a behaviour's onRequest may change. */
export function requestText(request: RefRequest): string {
  const { method, path, query, headers, body } = request
  return JSON.stringify([method, path, query.toString(), headers, body])
}

/** A response as it would be written: what a behaviour's onResponse may change. */
export function responseText(response: RefResponse): string {
  const { status, headers, body, raw, encoded } = response
  return JSON.stringify([status, headers, body, raw, encoded?.toString('base64')])
}

/**
 * The behaviour as it is, counting the exchanges it changed: a request its onRequest rewrote, or a response its
 * onResponse did. An allowance's test asserts that its allowance changed one at least: one that changed nothing
 * repeated the plain reference's test.
 */
export function countingEdits(behaviour: Behaviour): { behaviour: Behaviour; edits: () => number } {
  const edited = new WeakSet<RefRequest>()
  let edits = 0
  const count = (request: RefRequest, before: string, after: string) => {
    if (before === after || edited.has(request)) return
    edited.add(request)
    edits++
  }
  const { onRequest, onResponse, onSubscribe, onChannelOutput } = behaviour
  /** A channel's subscribe request or output that the behaviour changed counts as one exchange changed. */
  const countChannel = (before: string, after: string) => void (before !== after && edits++)
  return {
    behaviour: {
      ...behaviour,
      ...(onSubscribe && {
        onSubscribe(subscription: ChannelSubscription, data: ReferenceData) {
          const before = JSON.stringify(subscription)
          onSubscribe.call(behaviour, subscription, data)
          countChannel(before, JSON.stringify(subscription))
        },
      }),
      ...(onChannelOutput && {
        onChannelOutput(output: ChannelOutput, data: ReferenceData) {
          const before = JSON.stringify(output)
          onChannelOutput.call(behaviour, output, data)
          countChannel(before, JSON.stringify(output))
        },
      }),
      ...(onRequest && {
        onRequest(request: RefRequest, data: ReferenceData) {
          const before = requestText(request)
          onRequest.call(behaviour, request, data)
          count(request, before, requestText(request))
        },
      }),
      ...(onResponse && {
        onResponse(response: RefResponse, request: RefRequest, data: ReferenceData) {
          const before = responseText(response)
          onResponse.call(behaviour, response, request, data)
          count(request, before, responseText(response))
        },
      }),
    },
    edits: () => edits,
  }
}
