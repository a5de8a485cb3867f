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
  {
    name: 'restricted-key-of-full-scope',
    description:
      'The restricted API key lacks no scope: it is served every operation as the full key is (which scopes a restricted key lacks is not shown).',
    permittedBy: 'AUTH-403-SCOPE',
    // A deployment whose restricted key is refused nothing states no operations that refuse it.
    profileWithout: ['restrictedKey'],
    skips: [
      'auth/restricted-key-scope',
      'errors/forbidden-error-body',
      'profile/restricted-key-granted',
      'profile/restricted-key-refused',
    ],
    onRequest(request, data) {
      if (request.headers['x-api-key'] === data.restrictedApiKey) request.headers['x-api-key'] = data.apiKey
    },
  },
]
