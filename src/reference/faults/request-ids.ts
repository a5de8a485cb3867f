import type { Fault } from '../types.js'

export const requestIdFaults: readonly Fault[] = [
  {
    name: 'no-request-id-header',
    description: 'Responses carry no x-request-id header.',
    breaks: ['request-ids/present-on-success', 'every-response/request-id-present', 'every-response/error-request-id-matches-header', 'properties/valid-request-id-echoed'],
    onResponse(response) {
      delete response.headers['x-request-id']
    },
  },
]
