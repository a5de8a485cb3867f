import type { Allowance } from '../types.js'

export const headersAllowances: readonly Allowance[] = [
  {
    name: 'no-service-source-header',
    description: 'Responses carry no x-service-source header (responses "can include" it).',
    permittedBy: 'HDR-SERVICE-SOURCE-VALUES',
    onResponse(response) {
      delete response.headers['x-service-source']
    },
  },
]
