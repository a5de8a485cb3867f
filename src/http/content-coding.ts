import { Readable, Writable, type Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib'
import type { ExchangeResponse } from './exchange.js'
import { BodyCollector, decodeUtf8, parsedResponse } from './response-body.js'

/**
 * The content codings (RFC 9110 §8.4.1) the suite decodes, as sent in Accept-Encoding: a server may choose any coding
 * when a request sends no Accept-Encoding, so the client states these, and decodes them whatever it sent.
 */
export const ACCEPTED_CODINGS = 'gzip, deflate, br'

/** A body as it was sent (encoded) turned into its representation (decoded), or why it could not be. */
export type DecodedBody =
  /**
   * The decoded bytes; truncated when the decoded body is over the cap (or the encoded one was cut): only its start is
   * kept.
   */
  | { bytes: Buffer; truncated: boolean; codings: string[] }
  /** A coding the suite cannot decode: the body is not judged (a server may choose it; it is no finding). */
  | { unknownCoding: string }
  /** A coding the suite decodes, whose bytes are not in it: the body is not readable as served. */
  | { corrupt: string }

/** The codings of a Content-Encoding header, in the order they were applied; identity (no coding) left out. */
export function codingsOf(contentEncoding: string | readonly string[] | undefined): string[] {
  const values =
    contentEncoding === undefined ? [] : typeof contentEncoding === 'string' ? [contentEncoding] : contentEncoding
  return values
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
}

/** The first coding of a Content-Encoding header that the suite cannot decode, if any. */
export function unknownCodingOf(contentEncoding: string | readonly string[] | undefined): string | undefined {
  return codingsOf(contentEncoding).find((coding) => !['gzip', 'x-gzip', 'deflate', 'br'].includes(coding))
}

/**
 * deflate names the zlib format (RFC 9110 §8.4.1.2), though servers have long sent raw deflate under that name: a zlib
 * header tells them apart.
 */
function isZlibWrapped(bytes: Buffer): boolean {
  return bytes.length >= 2 && (bytes[0]! & 0x0f) === 8 && (bytes[0]! * 256 + bytes[1]!) % 31 === 0
}

/** A decoder of one coding; partial: the encoded bytes were cut at a cap, so their end is no error. */
function decoderOf(coding: string, firstBytes: Buffer, partial: boolean): Transform | undefined {
  const flush = partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {}
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip(flush)
  if (coding === 'deflate') return isZlibWrapped(firstBytes) ? createInflate(flush) : createInflateRaw(flush)
  if (coding === 'br') return createBrotliDecompress(partial ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {})
  return undefined
}

/**
 * Decodes a body by its Content-Encoding, the last coding applied undone first, keeping at most maxBytes of the
 * decoded body (a decompression bomb is cut there, streaming, and marked truncated as a body over the cap is).
 * encodedTruncated: the encoded bytes were cut at the cap already; their decoded start is kept.
 */
export async function decodeBody(
  encoded: Buffer,
  contentEncoding: string | readonly string[] | undefined,
  maxBytes: number,
  encodedTruncated = false,
): Promise<DecodedBody> {
  const codings = codingsOf(contentEncoding)
  if (codings.length === 0) return { bytes: encoded, truncated: encodedTruncated, codings }
  const unknown = unknownCodingOf(contentEncoding)
  if (unknown !== undefined) return { unknownCoding: unknown }
  const kept = new BodyCollector(maxBytes)
  const sink = new Writable({
    write(chunk: Buffer, _, done) {
      // Past the cap nothing more is wanted: the pipeline is ended here, and the decoders with it.
      done(kept.add(chunk) ? null : new BodyOverCap())
    },
  })
  // Only the outermost decoder sees the encoded bytes; an inner deflate is told zlib from raw by its default (zlib).
  const decoders = [...codings]
    .reverse()
    .map((coding, i) => decoderOf(coding, i === 0 ? encoded : Buffer.from([0x78, 0x9c]), encodedTruncated)!)
  try {
    await pipeline([Readable.from([encoded]), ...decoders, sink])
  } catch (error) {
    if (!(error instanceof BodyOverCap))
      return {
        corrupt: `content-encoding ${codings.join(', ')}, but the body is not in that coding (${zlibReason(error)})`,
      }
  }
  return { bytes: kept.bytes(), truncated: kept.truncated || encodedTruncated, codings }
}

class BodyOverCap extends Error {}

/** zlib's reason in words, without its error code. */
function zlibReason(error: unknown): string {
  const { message } = error as { message?: string }
  return message === undefined || message === '' ? 'it does not decode' : message.toLowerCase()
}

/**
 * A response as the checks see it, its body decoded by its Content-Encoding first: the one place where a body is
 * decoded, for a run's client, the proxy and check-har, before anything judges or redacts it. A body in a coding the
 * suite cannot decode is marked not judged; one whose bytes are not in its declared coding is kept as served (a
 * finding: it is no readable JSON).
 */
export async function decodedResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  encoded: Buffer,
  encodedTruncated: boolean,
  maxBytes: number,
): Promise<ExchangeResponse> {
  const contentEncoding = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1]
  const decoded = await decodeBody(encoded, contentEncoding, maxBytes, encodedTruncated)
  if ('unknownCoding' in decoded) {
    const reason = `a body in an unknown content coding ${decoded.unknownCoding}: not judged`
    return {
      ...parsedResponse(status, headers, '', false),
      jsonError: reason,
      notJudged: reason,
      encodedBytes: encoded.length,
    }
  }
  if ('corrupt' in decoded) {
    const { json: _unreadable, ...served } = parsedResponse(status, headers, decodeUtf8(encoded), encodedTruncated)
    return { ...served, jsonError: `not readable: ${decoded.corrupt}`, encodedBytes: encoded.length }
  }
  const response = parsedResponse(status, headers, decodeUtf8(decoded.bytes), decoded.truncated)
  return decoded.codings.length === 0 ? response : { ...response, encodedBytes: encoded.length }
}
