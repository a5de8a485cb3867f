import type { FaultName } from '../fault-names.js'
import type { Fault } from '../types.js'
import { authFaults } from './auth.js'
import { codingsFaults } from './codings.js'
import { configFaults } from './config.js'
import { cursorsFaults } from './cursors.js'
import { envelopeFaults } from './envelope.js'
import { errorsFaults } from './errors.js'
import { headersFaults } from './headers.js'
import { intentsFaults } from './intents.js'
import { limitsFaults } from './limits.js'
import { requestIdFaults } from './request-ids.js'
import { shapeFaults } from './shapes.js'
import { profileFaults } from './profile.js'
import { propertiesFaults } from './properties.js'
import { relationsFaults } from './relations.js'
import { unsampledFaults } from './unsampled.js'
import { writesFaults } from './writes.js'
import { realtimeFaults } from './realtime.js'

/** A fault of the catalogue, whose name FaultName names (generated from this list; test/meta/catalogue.test.ts). */
export type NamedFault = Fault & { readonly name: FaultName }

/** Every named fault of the reference server: each one precise violation of the contract. */
export const faults = [
  ...envelopeFaults,
  ...shapeFaults,
  ...errorsFaults,
  ...authFaults,
  ...requestIdFaults,
  ...intentsFaults,
  ...cursorsFaults,
  ...headersFaults,
  ...limitsFaults,
  ...configFaults,
  ...propertiesFaults,
  ...profileFaults,
  ...unsampledFaults,
  ...writesFaults,
  ...realtimeFaults,
  ...codingsFaults,
  ...relationsFaults,
] as readonly NamedFault[]

export function faultByName(name: string): Fault | undefined {
  return faults.find((fault) => fault.name === name)
}
