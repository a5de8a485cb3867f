import type { TestProject } from 'vitest/node'
import { reportedRuns } from '../test/support/reports.js'

/**
 * vitest globalSetup of the reports part (vitest.mutation-reports.config.ts): the whole runs whose reports the report
 * writers' tests render, made once for every mutant of the writers instead of once for each test file each mutant runs.
 */
export default async function makeReportsOnce(project: TestProject): Promise<void> {
  project.provide('referenceReports', await reportedRuns())
}
