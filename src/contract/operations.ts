import { loadOpenApi } from './schemas.js'

export type OperationId =
  'getIntentStatus' | 'getTraderPnl' | 'getVault' | 'listMarkets' | 'listTraderBalances' | 'getConfig'

export interface Operation {
  id: OperationId
  /** Path template as in specs/openapi.yaml, e.g. /v1/intents/{hash}. */
  template: string
  /** Component schema of the 200 body. */
  successSchema: string
  /** Statuses the operation declares; undefined where it declares a default (any status, with an error body). */
  declaredStatuses?: number[]
  isList: boolean
}

interface ResponseObject {
  content?: { 'application/json'?: { schema?: { $ref?: string } } }
}

let cached: Operation[] | undefined

/** The operations of specs/openapi.yaml, read from the document rather than written twice. */
export function operations(): Operation[] {
  cached ??= Object.entries(loadOpenApi().paths).map(([template, methods]) => {
    const { operationId, responses } = methods.get!
    const success = (responses['200'] as ResponseObject).content?.['application/json']?.schema?.$ref ?? ''
    const successSchema = success.replace('#/components/schemas/', '')
    const declared = Object.keys(responses)
    return {
      id: operationId as OperationId,
      template,
      successSchema,
      declaredStatuses: declared.includes('default') ? undefined : declared.map(Number),
      isList: successSchema === 'MarketsResponse' || successSchema === 'BalancesResponse',
    }
  })
  return cached
}

export function operation(id: OperationId): Operation {
  return operations().find((op) => op.id === id)!
}

/**
 * Whether a path parameter value addresses only its own segment once percent-encoded. The empty value and the dot
 * segments `.` and `..` cannot: URL parsers, gateways and servers resolve them (`%2E` included) to another path.
 * `/`, `?` and `#` can, encoded (fillPath does).
 */
export function staysInItsSegment(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..'
}

/**
 * Fills a path template, percent-encoding each value so that it stays in its segment. A value that would address
 * another path anyway is refused: only a check about routing may do that, and it gives the path itself (ctx.get).
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name] ?? ''
    if (!staysInItsSegment(value))
      throw new Error(`path parameter ${name} ${JSON.stringify(value)} would address another path than ${template}`)
    return encodeURIComponent(value)
  })
}

/** The operation whose template a path (without its query) fits, whatever its parameters hold. */
export function operationAt(path: string): OperationId | undefined {
  const bare = path.replace(/[?#].*$/, '')
  return operations().find((op) => new RegExp(`^${op.template.replace(/\{\w+\}/g, '[^/]*')}$`).test(bare))?.id
}
