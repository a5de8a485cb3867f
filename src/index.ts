/**
 * The programmatic API of ipts-conformance (package.json "exports"); the report's JSON Schema is
 * `ipts-conformance/specs/report.schema.json`.
 */
export { runConformance, type RunOptions, type Waiver } from './runner/run.js'
export { TargetUnreachableError, UsageError, ProfileError, ERROR_CODES } from './core/errors.js'
export type { GivenSettings } from './core/defaults.js'
export type { RunSettings, IntentInput } from './core/settings.js'
export { startReferenceServer, type ReferenceOptions, type ReferenceServer } from './reference/server.js'
export { referenceBehaviours } from './reference/named-behaviours.js'
export { faults } from './reference/faults/index.js'
export { allowances } from './reference/allowances/index.js'
export type { Behaviour, Fault, Allowance } from './reference/types.js'
export type { CheckId, RequirementId } from './contract/catalogue-ids.js'
export type { FaultName } from './reference/fault-names.js'
export type { AllowanceName } from './reference/allowance-names.js'
export { writeReports } from '../reporters/write.js'
export type { Report, CheckOutcome, CheckStatus, RequirementResult, RequirementStatus, Summary } from './core/report.js'
export type { Evidence, SentWrite, ClientRuleBreach } from './core/report.js'
export { writePlanLines, type WritePlan } from './engine/write-plan.js'
export { compareReports, type Comparison } from '../reporters/compare.js'
