import { errorBodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

export const errorsAllowances: readonly Allowance[] = [
  {
    name: 'error-body-extra-members',
    description: 'Error bodies carry members the contract does not list (additional properties are allowed).',
    permittedBy: 'ERR-BODY-SCHEMA',
    onResponse(response) {
      Object.assign(errorBodyOf(response) ?? {}, { details: [{ field: 'request', issue: 'see error' }], documentation: 'https://docs.example/errors' })
    },
  },
  {
    name: 'error-body-without-code-and-request-id',
    description: 'Error bodies carry only error: code and requestId are optional.',
    permittedBy: 'ERR-BODY-SCHEMA',
    skips: ['every-response/error-request-id-matches-header'],
    onResponse(response) {
      const body = errorBodyOf(response)
      delete body?.code
      delete body?.requestId
    },
  },
]
