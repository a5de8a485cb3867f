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

/**
 * A part that measures the code these files run as their modules load alone (the ignorer top-level-only.mjs leaves the
 * rest to the parts that mutate them with ignoreStatic): every test of its vitest configuration runs for each mutant.
 * @param {string} name the part's name, as for strykerPart
 * @param {string[]} mutate the files whose top-level code it mutates
 * @returns {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export function staticPart(name, mutate) {
  return {
    ...strykerPart(name, mutate),
    ignoreStatic: false,
    // StrykerJS's incremental mode keeps a static mutant that survived as survived though tests that kill it were added
    // since (seen on 2026-11-27: 39 survivors kept, each killed by a new test applied by hand): every run is whole.
    incremental: false,
    plugins: ['@stryker-mutator/*', './mutation/top-level-only.mjs'],
    ignorers: ['top-level-only'],
  }
}
