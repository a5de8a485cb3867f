import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the HTTP client under mutation (stryker.http.config.mjs): its unit tests (the client, its
 * edges, the writes' resends, the listed material, the decoded views of a body the redaction reads, the breaker,
 * limiter and 429 gate, the WebSocket channel). Not the runs of its waits, breaker, retries and quota (test/runs/):
 * each mutant of the client is reached by each of their runs.
 */
export default mutationPart([
  'test/unit/http-client.test.ts',
  'test/unit/http-edges.test.ts',
  'test/unit/writes-client.test.ts',
  'test/unit/listed-material.test.ts',
  'test/unit/listed-member-schemas.test.ts',
  'test/unit/redaction.test.ts',
  'test/unit/secret-forms.test.ts',
  'test/unit/client-bounds.test.ts',
  'test/unit/web-socket.test.ts',
])
