import { bodyOf } from '../response-edits.js'
import type { Allowance } from '../types.js'

export const authAllowances: readonly Allowance[] = [
  {
    name: 'refusal-with-null-data',
    description: 'A 401 or 403 body carries data: null next to its error (null data is no payload).',
    permittedBy: 'AUTH-REFUSAL-NO-DATA',
    onResponse(response) {
      const body = response.status === 401 || response.status === 403 ? bodyOf(response) : undefined
      if (body) body.data = null
    },
  },
]
