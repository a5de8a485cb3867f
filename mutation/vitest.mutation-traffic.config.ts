import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the traffic adapters and the HAR under mutation (stryker.traffic.config.mjs): the unit
 * tests of the spool, the judgement of recorded traffic, the secrets learned from it and the write keys, then the
 * surfaces that run them in this process (ipts check-har, ipts proxy, the HAR export of a run).
 */
export default mutationPart([
  'test/unit/har-spool.test.ts',
  'test/unit/judged-edges.test.ts',
  'test/unit/learned-secret-edges.test.ts',
  'test/unit/write-key-edges.test.ts',
  'test/unit/listed-material.test.ts',
  'test/surfaces/check-har.test.ts',
  'test/surfaces/proxy.test.ts',
  'test/surfaces/har-export.test.ts',
])
