import type { Fault } from '../types.js'

/** A fault where a key sent in the query string under `name` authenticates like X-API-Key. */
function queryKeyAccepted(faultName: string, name: string): Fault {
  return {
    name: faultName,
    description: `A key sent in the query string as ${name} authenticates like X-API-Key.`,
    // Served without X-API-Key: the observer sees the 200 to a request without the header too.
    breaks: ['auth/query-key-not-accepted', 'auth/missing-key'],
    checkWitnesses: { 'auth/missing-key': ['auth/query-key-not-accepted'] },
    onRequest(request) {
      const fromQuery = request.query.get(name)
      if (request.headers['x-api-key'] === undefined && fromQuery !== null) request.headers['x-api-key'] = fromQuery
    },
  }
}

export const authFaults: readonly Fault[] = [
  {
    name: 'vault-served-without-key',
    description: 'GET /v1/vault is served to requests without X-API-Key, as if it were public.',
    breaks: ['auth/missing-key'],
    onRequest(request, data) {
      if (request.path === '/v1/vault' && request.headers['x-api-key'] === undefined)
        request.headers['x-api-key'] = data.apiKey
    },
  },
  {
    name: 'markets-accepts-any-key',
    description: 'GET /v1/markets accepts any X-API-Key, known or not.',
    breaks: ['auth/unknown-key', 'properties/garbage-key-refused'],
    onRequest(request, data) {
      const key = request.headers['x-api-key']
      if (request.path === '/v1/markets' && key !== undefined && key !== data.restrictedApiKey)
        request.headers['x-api-key'] = data.apiKey
    },
  },
  {
    name: 'restricted-key-refused-as-unauthorized',
    description: 'The restricted key is answered 401, as if it were invalid, where it lacks the scope.',
    breaks: ['auth/restricted-key-scope', 'profile/restricted-key-refused'],
    onResponse(response) {
      if (response.status === 403) response.status = 401
    },
  },
  queryKeyAccepted('query-key-accepted', 'api_key'),
  // A name other than api_key: the check tries several, and a fault on one name alone would not show it.
  queryKeyAccepted('query-key-accepted-as-key', 'key'),
  {
    name: 'key-compared-without-case',
    description:
      'X-API-Key is looked up without regard to letter case, so the real key with its letters in the other case authenticates.',
    breaks: ['properties/garbage-key-refused'],
    onRequest(request, data) {
      const key = request.headers['x-api-key']
      const known = [data.apiKey, data.restrictedApiKey].find(
        (real) => key !== undefined && key !== real && key.toLowerCase() === real.toLowerCase(),
      )
      if (known) request.headers['x-api-key'] = known
    },
  },
  {
    name: 'unauthorized-with-data',
    description: 'A 401 body carries a data member next to its error.',
    breaks: ['every-response/refusal-without-data'],
    ruleWitnesses: ['errors/unauthorized-error-body'],
    onResponse(response) {
      if (response.status === 401) Object.assign(response.body as object, { data: [] })
    },
  },
  {
    name: 'unauthorized-with-payload',
    description: 'A 401 of GET /v1/vault carries the vault as its data next to its error: the refusal grants access.',
    breaks: ['every-response/refusal-carries-no-payload', 'every-response/refusal-without-data'],
    ruleWitnesses: ['auth/missing-key'],
    onResponse(response, request, data) {
      if (response.status === 401 && request.path === '/v1/vault')
        Object.assign(response.body as object, { data: structuredClone(data.vault) })
    },
  },
]
