import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the traffic adapters and the HAR under mutation (stryker.traffic.config.mjs): the unit
 * tests of the HAR reader, the spool, the judgement of recorded traffic, the secrets learned from it, the write keys,
 * the listed material, the reading of WebSocket frames, the bounds as documented, and the proxy server run in this
 * process against an upstream on 127.0.0.1. Not the surfaces (ipts check-har, ipts proxy): each mutant of the judgement
 * is reached by each of their tests, a minute a mutant on two cores.
 */
export default mutationPart([
  'test/unit/har-reading.test.ts',
  'test/unit/har-spool.test.ts',
  'test/unit/judged-edges.test.ts',
  'test/unit/learned-secret-edges.test.ts',
  'test/unit/write-key-edges.test.ts',
  'test/unit/listed-material.test.ts',
  'test/unit/proxy-server.test.ts',
  'test/unit/traffic-bounds.test.ts',
  'test/unit/traffic-judgement.test.ts',
  'test/unit/websocket-messages.test.ts',
])
