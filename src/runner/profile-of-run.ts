import { HttpClient } from '../http/client.js'
import { specPath } from '../core/package-root.js'
import type { Behaviour } from '../reference/types.js'
import { DESCRIPTION_PATH, rateLimitScope, type Quota } from '../reference/server.js'
import type { RunSettings } from '../core/settings.js'
import { loadProfile, readProfileFile, type ProfileSource } from '../profile/load.js'
import type { Profile, ProfileValues } from '../profile/profile.js'
import type { DescriptionFetch } from '../profile/published-description.js'

export const REFERENCE_PROFILE_FILE = 'reference-profile.yaml'

/** The reference's profile file as read once: it is shipped with the package, and every embedded run starts from it. */
let referenceProfileFile: ProfileValues | undefined

/**
 * The embedded reference's own profile (specs/reference-profile.yaml), without the keys the switched-on behaviours make
 * untrue, with the address where this server publishes its description and the scope and limit its quota's 429s name.
 */
export function referenceProfileSource(
  baseUrl: string,
  behaviours: readonly Behaviour[],
  quota?: Quota,
): ProfileSource {
  const file = structuredClone((referenceProfileFile ??= readProfileFile(specPath(REFERENCE_PROFILE_FILE))))
  const values: ProfileValues = { ...file, openapi: `${baseUrl}${DESCRIPTION_PATH}` }
  // The limit its 429s state is the run's quota, when the run sets one.
  if (file.quota) values.quota = { ...file.quota, scope: rateLimitScope(quota), ...(quota && { limit: quota.limit }) }
  for (const key of behaviours.flatMap((b) => b.profileWithout ?? [])) delete values[key]
  return {
    values,
    baseDir: specPath(''),
    source: `the embedded reference's own profile (specs/${REFERENCE_PROFILE_FILE})`,
  }
}

/**
 * Fetches a published description through a polite client of the run: same bounds, same shared concurrency and quota
 * gate, GET only.
 */
export function politeFetch(settings: RunSettings, shared: SharedArrayBuffer): DescriptionFetch {
  return async (url) => {
    const { origin, pathname, search } = new URL(url)
    const client = new HttpClient({
      baseUrl: origin,
      concurrency: settings.concurrency,
      connectTimeoutMs: settings.connectTimeoutMs,
      requestTimeoutMs: settings.requestTimeoutMs,
      maxBodyBytes: settings.maxBodyBytes,
      deadlineAt: settings.deadlineAt,
      shared,
    })
    try {
      const exchange = await client.get({ path: `${pathname}${search}`, headers: { accept: 'application/json' } })
      if (!exchange.response) return { error: exchange.error?.message ?? 'no response' }
      if (exchange.response.truncated) return { error: `the body is larger than ${settings.maxBodyBytes} bytes` }
      return { status: exchange.response.status, body: exchange.response.body }
    } finally {
      await client.close()
    }
  }
}

/** The run's profile: the one given, else the reference's own when the target is embedded; null runs without one. */
export async function resolveProfile(
  given: ProfileSource | null | undefined,
  embedded: { baseUrl: string; behaviours: readonly Behaviour[]; quota?: Quota } | undefined,
  fetchDescription: DescriptionFetch,
): Promise<Profile | undefined> {
  if (given === null) return undefined
  const source = given ?? (embedded && referenceProfileSource(embedded.baseUrl, embedded.behaviours, embedded.quota))
  return source && loadProfile(source, fetchDescription)
}
