import { checksByConcern } from '../src/checks/index.js'
import { registerChecks } from '../src/vitest/register.js'

registerChecks('request-ids', checksByConcern['request-ids'])
