import { randomBytes } from 'node:crypto'
import { successBody } from '../record-edits.js'
import { bodyOf, carryRequestId } from '../response-edits.js'
import type { Fault, RefResponse } from '../types.js'

const freshRequestId = () => `gen-${randomBytes(8).toString('hex')}`

const isError = (response: RefResponse) => response.status >= 400

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

/** Gives back the X-Request-ID sent as a store that keeps it otherwise would: changed, where the change alters it. */
const echoedAs =
  (change: (sent: string) => string): Fault['onResponse'] =>
  (response, request) => {
    const sent = request.headers['x-request-id']
    if (sent !== undefined && response.headers['x-request-id'] === sent && change(sent) !== sent)
      carryRequestId(response, change(sent))
  }

export const requestIdFaults: readonly Fault[] = [
  {
    name: 'invalid-request-id-echoed-in-body',
    description:
      'The configuration body carries an invalid X-Request-ID back verbatim as its requestId; the header carries a generated one.',
    breaks: ['request-ids/invalid-not-echoed'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      const body =
        sent !== undefined && !REQUEST_ID.test(sent) ? successBody(response, request, 'getConfig') : undefined
      if (body) body.requestId = sent
    },
  },
  {
    name: 'no-request-id-header',
    description: 'Responses carry no x-request-id header.',
    breaks: [
      'request-ids/present-on-success',
      'request-ids/present-on-error',
      'request-ids/valid-echoed',
      'request-ids/error-echoes-sent-id',
      'request-ids/error-body-id-matches-header',
      'every-response/request-id-present',
      'every-response/error-request-id-matches-header',
      'properties/valid-request-id-echoed',
    ],
    ruleWitnesses: ['request-ids/error-body-id-matches-header'],
    onResponse(response) {
      delete response.headers['x-request-id']
    },
  },
  {
    name: 'no-request-id-on-errors',
    description:
      'Error responses are written by a handler that bypasses the request-ID middleware: no x-request-id, no requestId in the body.',
    breaks: [
      'request-ids/present-on-error',
      'request-ids/error-echoes-sent-id',
      'request-ids/valid-echoed',
      'every-response/request-id-present',
      'properties/valid-request-id-echoed',
    ],
    ruleWitnesses: ['errors/unknown-intent-not-found'],
    checkWitnesses: { 'request-ids/valid-echoed': ['request-ids/error-echoes-sent-id'] },
    onResponse(response) {
      if (!isError(response)) return
      delete response.headers['x-request-id']
      delete bodyOf(response)?.requestId
    },
  },
  {
    name: 'request-id-regenerated-on-errors',
    description:
      "Error responses carry a freshly generated request ID in the header and the body, ignoring the client's valid X-Request-ID.",
    breaks: ['request-ids/error-echoes-sent-id', 'request-ids/valid-echoed', 'properties/valid-request-id-echoed'],
    checkWitnesses: { 'request-ids/valid-echoed': ['request-ids/error-echoes-sent-id'] },
    onResponse(response) {
      if (isError(response)) carryRequestId(response, freshRequestId())
    },
  },
  {
    name: 'error-body-request-id-differs',
    description: 'Error bodies carry a requestId of their own, different from the x-request-id header.',
    breaks: ['request-ids/error-body-id-matches-header', 'every-response/error-request-id-matches-header'],
    ruleWitnesses: ['errors/unknown-intent-not-found'],
    onResponse(response) {
      const body = isError(response) ? bodyOf(response) : undefined
      if (body) body.requestId = freshRequestId()
    },
  },
  {
    name: 'request-id-colons-refused',
    description:
      'The X-Request-ID validation leaves out the colon, so a valid ID with a colon is replaced by a generated one.',
    breaks: ['request-ids/valid-echoed', 'properties/valid-request-id-echoed'],
    onResponse(response, request) {
      if (request.headers['x-request-id']?.includes(':')) carryRequestId(response, freshRequestId())
    },
  },
  {
    name: 'request-id-lowercased',
    description:
      'The request ID is kept in a case-insensitive store, so a valid X-Request-ID with capitals comes back in lower case.',
    breaks: ['request-ids/valid-echoed', 'properties/valid-request-id-echoed'],
    onResponse: echoedAs((sent) => sent.toLowerCase()),
  },
  {
    name: 'request-id-truncated-to-64',
    description:
      'The request ID is stored in a 64-character column, so a longer valid X-Request-ID comes back cut short.',
    breaks: ['request-ids/valid-echoed', 'properties/valid-request-id-echoed'],
    onResponse: echoedAs((sent) => sent.slice(0, 64)),
  },
  {
    name: 'request-id-echoed-unvalidated',
    description: 'Any X-Request-ID the client sends is echoed back as it is, however long, short or oddly spelled.',
    // Invalid IDs ride on refusals too, so the error body's requestId pattern meets them (ERR-BODY-SCHEMA); an echoed
    // empty ID is none. The empty ID now meets only successes, so no error body's requestId differs from its header
    // here: no-request-id-header and error-body-request-id-differs still break
    // every-response/error-request-id-matches-header.
    breaks: [
      'request-ids/invalid-not-echoed',
      'every-response/request-id-format',
      'every-response/request-id-present',
      'every-response/error-body',
      'properties/invalid-request-id-not-echoed',
    ],
    ruleWitnesses: ['properties/invalid-request-id-not-echoed'],
    onResponse(response, request) {
      const sent = request.headers['x-request-id']
      if (sent !== undefined) carryRequestId(response, sent)
    },
  },
]
