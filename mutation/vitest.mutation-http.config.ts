import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the HTTP client under mutation (stryker.http.config.mjs): its unit tests (the client, its
 * edges, the writes' resends, the listed material), then the runs of its waits, breaker, content codings, retries and
 * quota, for the modules no unit test reaches (the limiter, the quota gate, the breaker).
 */
export default mutationPart([
  'test/unit/http-client.test.ts',
  'test/unit/http-edges.test.ts',
  'test/unit/writes-client.test.ts',
  'test/unit/listed-material.test.ts',
  'test/runs/client-waits.test.ts',
  'test/runs/circuit-breaker.test.ts',
  'test/runs/content-coding.test.ts',
  'test/runs/retries.test.ts',
  'test/runs/quota.test.ts',
])
