import { Ajv2020 } from 'ajv/dist/2020.js'
import { addFormats } from '../contract/schemas.js'

/**
 * A fresh JSON Schema 2020-12 compiler for a deployment's own schema (the profile's configSchema). Not strict: a
 * vendor's schema may carry annotations ajv does not know, which do not change what it accepts.
 */
export function configSchemaCompiler(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true })
  addFormats(ajv)
  return ajv
}
