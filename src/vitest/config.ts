import { join } from 'node:path'
import type { InlineConfig } from 'vitest/node'
import { allChecks } from '../checks/index.js'
import type { RunSettings } from '../core/settings.js'
import { packageRoot } from '../core/package-root.js'

/**
 * Concern files run in parallel workers, so that one file's long sequential check (a property's inputs go one after
 * another) does not hold the others back; the workers' clients share one concurrency bound and one quota gate.
 */
const SUITE_WORKERS = 2

/** suites/ at the package's root, or dist/suites/ once compiled (the installed package). */
const suitesDir = join(packageRoot, import.meta.url.endsWith('.ts') ? 'suites' : 'dist/suites')

/** What the suite's vitest tests read through inject(): the settings, the clients' shared state, the exchange log. */
export interface SuiteTarget {
  settings: RunSettings
  shared: SharedArrayBuffer
  exchangeLog?: string
}

declare module 'vitest' {
  interface ProvidedContext {
    ipts: RunSettings
    /** The state the run's clients share across worker threads (src/http/shared-state.ts). */
    iptsShared: SharedArrayBuffer
    /**
     * Where the workers log the run's exchanges for the HAR (src/har/exchange-log.ts); undefined when no HAR is
     * written.
     */
    iptsExchangeLog?: string
  }
}

/** The vitest settings of `npx vitest run` against this target, optionally only some checks. */
export function suiteTestConfig(target: SuiteTarget, only?: readonly string[]): InlineConfig {
  const { settings } = target
  return {
    root: packageRoot,
    dir: suitesDir,
    include: ['**/*.test.{ts,js}'],
    exclude: [],
    pool: 'threads',
    maxWorkers: SUITE_WORKERS,
    isolate: false,
    testTimeout: settings.requestTimeoutMs * 20 + 60_000,
    maxConcurrency: settings.concurrency,
    testNamePattern: only ? titlePattern(only) : undefined,
    passWithNoTests: true,
    provide: { ipts: settings, iptsShared: target.shared, iptsExchangeLog: target.exchangeLog },
  }
}

function titlePattern(ids: readonly string[]): RegExp {
  const titles = allChecks
    .filter((check) => ids.includes(check.id))
    .map((check) => check.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^.*(?:${titles.join('|') || '(?!)'})$`)
}
