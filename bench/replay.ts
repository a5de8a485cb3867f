import { Pool } from 'undici'
import type { RefRequest } from '../src/reference/types.js'

/** A request as the reference server received it, enough to send it again. */
export interface RecordedRequest {
  path: string
  headers: Record<string, string>
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'])

export function recorded(request: RefRequest): RecordedRequest {
  const query = request.query.toString()
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value
  return { path: query ? `${request.path}?${query}` : request.path, headers }
}

/**
 * The lower bound the suite is measured against: the same requests, sent by bare undici with the same concurrency,
 * bodies read and dropped.
 */
export async function replay(
  baseUrl: string,
  requests: readonly RecordedRequest[],
  concurrency: number,
): Promise<number> {
  const pool = new Pool(baseUrl, { connections: concurrency })
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const { path, headers } = requests[next++]!
      const { body } = await pool.request({ method: 'GET', path, headers })
      await body.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsed = performance.now() - started
  await pool.destroy()
  return elapsed
}
