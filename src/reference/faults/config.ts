import { successBody } from '../record-edits.js'
import type { Fault } from '../types.js'

export const configFaults: readonly Fault[] = [
  {
    name: 'config-as-text',
    description: 'GET /v1/config answers 200 with the configuration as key=value text under a JSON content type.',
    breaks: ['config/answers-json', 'profile/config-schema'],
    onResponse(response, request) {
      const body = successBody(response, request, 'getConfig')
      if (body)
        response.raw = Object.entries(body)
          .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
          .join('\n')
    },
  },
  {
    name: 'vault-outside-v1',
    description: 'The vault is served at /v2/vault; /v1/vault is an unknown route (404).',
    // The missing route is also a valid request without its 200.
    breaks: [
      'config/operations-under-v1',
      'shapes/operations-answer-200',
      'auth/restricted-key-scope',
      'profile/restricted-key-granted',
      'profile/vault-required-members',
    ],
    onRequest(request) {
      if (request.path === '/v1/vault') request.path = '/v1/vault/moved-to-v2'
      else if (request.path === '/v2/vault') request.path = '/v1/vault'
    },
  },
]
