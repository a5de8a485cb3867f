import { mutationPart } from './vitest.mutation-part.js'

/**
 * The self-tests that judge the front ends under mutation (src/cli, src/runner, src/vitest; stryker.front.config.mjs):
 * the surface tests that run each command in this process, its inputs and the reports it writes, and the test of the
 * docs (the help the CLI prints).
 */
export default mutationPart(
  [
    'test/unit/baseline.test.ts',
    'test/unit/harness.test.ts',
    'test/unit/input-edges.test.ts',
    'test/surfaces/cli.test.ts',
    'test/surfaces/inputs.test.ts',
    'test/surfaces/preflight.test.ts',
    'test/surfaces/interruption.test.ts',
    'test/surfaces/waivers.test.ts',
    'test/surfaces/replay.test.ts',
    'test/surfaces/report-cli.test.ts',
    'test/surfaces/reference-command.test.ts',
    'test/surfaces/vitest-config.test.ts',
    'test/meta/docs.test.ts',
  ],
  // Its top-level code is measured here too (stryker.front.config.mjs): a fresh module graph for each test file.
  { topLevel: true },
)
