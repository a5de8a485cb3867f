import type { Allowance } from '../types.js'

export const limitsAllowances: readonly Allowance[] = [
  {
    name: 'quota-429-without-scope-header',
    description: 'A 429 for an exceeded quota carries Retry-After but no x-ratelimit-scope: "Error responses can also include ... x-ratelimit-scope" stands beside the Limits row that says the header names the scope.',
    permittedBy: 'LIM-QUOTA-429',
    readings: ['every-response/rate-limit-scope'],
    // Shows only under a quota and the rate-limit probe; a deployment sending no scope would not state the reference's quota scope.
    run: { probeRateLimit: true, quota: { limit: 40, windowMs: 1000 } },
    profileWithout: ['quota'],
    onResponse(response) {
      if (response.status === 429) delete response.headers['x-ratelimit-scope']
    },
  },
]
