#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8'
import { main } from '../dist/src/cli/main.js'

// A smaller young generation for the suite's worker threads, created after this line (they take the flag): peak memory
// of a default run drops by a tenth for a few percent more CPU time, which the target's latency hides (README, Benchmark).
setFlagsFromString('--max-semi-space-size=2')
process.exit(await main(process.argv.slice(2)))
