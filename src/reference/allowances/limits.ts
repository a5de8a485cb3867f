import { PROBED_QUOTA } from '../server.js'
import type { Allowance } from '../types.js'

export const limitsAllowances: readonly Allowance[] = [
  {
    name: 'quota-429-without-optional-headers',
    description:
      'A 429 for an exceeded quota carries Retry-After (which a 429 carries) and neither x-ratelimit-limit nor x-ratelimit-scope ("error responses can also include" them), while the profile states the quota values those headers would carry.',
    permittedBy: 'LIM-QUOTA-VALUES',
    readings: ['every-response/rate-limit-scope'],
    // The profile's quota stays: it states the values of the headers when they are sent, not that they are.
    run: { probeRateLimit: true, quota: PROBED_QUOTA },
    onResponse(response) {
      if (response.status === 429)
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-scope']) delete response.headers[name]
    },
  },
  {
    name: 'quota-429-without-scope-header',
    description:
      'A 429 for an exceeded quota carries Retry-After but no x-ratelimit-scope: "Error responses can also include ... x-ratelimit-scope" stands beside the Limits row that says the header names the scope.',
    permittedBy: 'LIM-QUOTA-429',
    readings: ['every-response/rate-limit-scope'],
    // Shows only under a quota and the rate-limit probe; a deployment sending no scope would not state the reference's
    // quota scope.
    run: { probeRateLimit: true, quota: PROBED_QUOTA },
    profileWithout: ['quota'],
    // The quota values the 429s carry are judged against the profile's quota, which the profile then leaves out.
    skips: ['every-response/quota-values'],
    onResponse(response) {
      if (response.status === 429) delete response.headers['x-ratelimit-scope']
    },
  },
]
