import { PROBED_QUOTA } from '../server.js'
import type { Fault } from '../types.js'

/** Shows only under a quota and the rate-limit probe, which the fault self-test switches on from `run`. */
const underQuota: Fault['run'] = { probeRateLimit: true, quota: PROBED_QUOTA }

export const limitsFaults: readonly Fault[] = [
  {
    name: 'quota-429-without-scope',
    description: 'A 429 for an exceeded quota carries no x-ratelimit-scope header.',
    // The scope is a reading (LIM-QUOTA-SCOPE, SHOULD); the profile's quota.scope holds only a scope that is sent.
    breaks: ['every-response/rate-limit-scope'],
    ruleWitnesses: ['limits/quota-429'],
    run: underQuota,
    onResponse(response) {
      if (response.status === 429) delete response.headers['x-ratelimit-scope']
    },
  },
  {
    name: 'quota-retry-after-zero',
    description: 'A 429 for an exceeded quota says Retry-After: 0.',
    breaks: ['limits/quota-429', 'every-response/retry-after'],
    run: underQuota,
    onResponse(response) {
      if (response.status === 429) response.headers['retry-after'] = '0'
    },
  },
  {
    name: 'quota-429-without-scope-met-in-run',
    description: 'Under a quota the run meets without the rate-limit probe, a 429 carries no x-ratelimit-scope header.',
    breaks: ['every-response/rate-limit-scope'],
    ruleWitnesses: ['properties/invalid-request-id-not-echoed'],
    run: { quota: underQuota.quota },
    onResponse(response) {
      if (response.status === 429) delete response.headers['x-ratelimit-scope']
    },
  },
]
