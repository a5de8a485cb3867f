import { configDefaults, defineConfig } from 'vitest/config'

/** The project's own tests (npm test). The conformance suites under suites/ (and the fixture suites) run only through the runner. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/fixtures/**'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
