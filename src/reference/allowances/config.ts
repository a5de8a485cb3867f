import { successBody } from '../record-edits.js'
import type { Allowance } from '../types.js'

export const configAllowances: readonly Allowance[] = [
  {
    name: 'config-as-array',
    description:
      'GET /v1/config answers a JSON array of feature entries (the shape of the configuration is not shown).',
    permittedBy: 'EP-CONFIG-SHAPE',
    skips: ['profile/config-schema'],
    // The reference's profile states an object shape; a deployment answering an array would not state it.
    profileWithout: ['configSchema'],
    onResponse(response, request) {
      const body = successBody(response, request, 'getConfig')
      if (body) response.body = Object.entries(body).map(([name, value]) => ({ name, value }))
    },
  },
]
