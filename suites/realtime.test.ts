import { checksByConcern } from '../src/checks/index.js'
import { registerChecks } from '../src/vitest/register.js'

registerChecks('realtime', checksByConcern['realtime'])
