// @ts-check
import checks from './stryker.config.mjs'

/**
 * A part of npm run mutation judged by its own unit and surface tests (mutation/vitest.mutation-<name>.config.ts). Its
 * top-level code (the tables, patterns and lists a module judges with) is measured by the static part
 * (stryker.static.config.mjs): every test runs for such a mutant, and the surfaces would cost minutes each.
 * @param {string} name the part's name: its vitest configuration, reports and temporary directory
 * @param {string[]} mutate the files it mutates
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function strykerPart(name, mutate) {
  return {
    ...checks,
    vitest: { configFile: `mutation/vitest.mutation-${name}.config.ts`, related: false },
    mutate,
    concurrency: 2,
    // The dry run (every test once, with coverage per test) takes minutes on a loaded machine: over StrykerJS's
    // default of 5 the HTTP part's never finished.
    dryRunTimeoutMinutes: 20,
    incrementalFile: `reports/mutation/${name}-incremental.json`,
    tempDirName: `.stryker-tmp-${name}`,
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
  }
}
