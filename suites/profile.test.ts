import { checksByConcern } from '../src/checks/index.js'
import { registerChecks } from '../src/harness/register.js'

registerChecks('profile', checksByConcern['profile']!)
