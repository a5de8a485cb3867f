import { successBody } from '../record-edits.js'
import type { Fault } from '../types.js'

export const configFaults: readonly Fault[] = [
  {
    name: 'config-as-array',
    description: 'GET /v1/config answers a JSON array holding the configuration.',
    breaks: ['config/answers-object', 'profile/config-schema'],
    onResponse(response, request) {
      const body = successBody(response, request, 'getConfig')
      if (body) response.body = [body]
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
      'headers/optional-request-headers',
      'profile/restricted-key-granted',
      'profile/vault-required-members',
    ],
    onRequest(request) {
      if (request.path === '/v1/vault') request.path = '/v1/vault/moved-to-v2'
      else if (request.path === '/v2/vault') request.path = '/v1/vault'
    },
  },
]
