import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the front ends under mutation (src/cli, src/runner, src/vitest but the inputs;
 * stryker.front.config.mjs), per test: the surface tests that run each command in this process (a run, its preflight,
 * its interruption, waivers, replay and report files; reference, check-har, proxy, compare, profile init), the unit
 * tests of the harness and the baseline. Their top-level code is the front-static part's
 * (vitest.mutation-front-static.config.ts).
 */
export default mutationPart([
  'test/unit/baseline.test.ts',
  'test/unit/harness.test.ts',
  'test/unit/subcommand-flags.test.ts',
  'test/unit/preflight-failures.test.ts',
  'test/unit/secrets-redacted-errors.test.ts',
  'test/unit/input-edges.test.ts',
  'test/surfaces/cli.test.ts',
  'test/surfaces/inputs.test.ts',
  'test/surfaces/preflight.test.ts',
  'test/surfaces/interruption.test.ts',
  'test/surfaces/waivers.test.ts',
  'test/surfaces/replay.test.ts',
  'test/surfaces/report-cli.test.ts',
  'test/surfaces/reference-in-process.test.ts',
  'test/surfaces/check-har.test.ts',
  'test/surfaces/proxy.test.ts',
  'test/surfaces/proxy-websocket.test.ts',
  'test/surfaces/compare.test.ts',
  'test/runs/profile.test.ts',
  'test/meta/docs.test.ts',
])
