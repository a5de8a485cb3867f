import { defineConfig } from 'vitest/config'

/** The project's own tests (npm test). The conformance suites under suites/ run only through the runner. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
