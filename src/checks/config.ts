import { operations } from '../contract/operations.js'
import { answersOf, failureOf, pathsOf } from './success-bodies.js'
import type { Check } from './types.js'
import { statusOf } from './operation-calls.js'

// For an operation with a path parameter a 404 can mean that the resource does not exist; without one it means the
// route is missing.
const unparameterised = operations()
  .filter((op) => !op.template.includes('{'))
  .map((op) => op.id)
const NOT_SERVED = [404, 405, 501]

export const configChecks: readonly Check[] = [
  {
    id: 'config/answers-json',
    requirement: 'EP-CONFIG',
    title: 'GET /v1/config answers a 2xx with a JSON body (its shape is not shown)',
    needs: ['apiKey'],
    async run(ctx) {
      const exchange = await ctx.call('getConfig')
      const status = exchange.response?.status
      if (status === undefined || status < 200 || status > 299)
        ctx.fail(`answered ${statusOf(exchange)}, expected a 2xx with the deployment configuration`, { exchange })
      ctx.expectSchema('ConfigResponse', exchange)
    },
  },
  {
    id: 'config/operations-under-v1',
    requirement: 'VER-V1-PREFIX',
    title: `${pathsOf(unparameterised)} are served under the /v1 prefix`,
    needs: ['apiKey'],
    async run(ctx) {
      for (const answer of await answersOf(ctx, unparameterised)) {
        const status = answer.exchange.response?.status
        if (status === undefined || NOT_SERVED.includes(status))
          ctx.fail(failureOf(answer, 'the operation is not served at its /v1 path'), { exchange: answer.exchange })
      }
    },
  },
]
