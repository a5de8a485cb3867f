import { profileOpenApiChecks } from './profile-openapi.js'
import { profilePageSizeChecks } from './profile-page-sizes.js'
import { profileScopeChecks } from './profile-scopes.js'
import { profileShapeChecks } from './profile-shapes.js'
import type { Check } from './types.js'

/**
 * Checks that hold the target to its deployment profile (--profile): each is skipped as not assessable without its key.
 */
export const profileChecks: readonly Check[] = [
  ...profileScopeChecks,
  ...profilePageSizeChecks,
  ...profileShapeChecks,
  ...profileOpenApiChecks,
]
