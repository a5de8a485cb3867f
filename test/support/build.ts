import { execFileSync } from 'node:child_process'
import { packageRoot } from '../../src/core/package-root.js'

/**
 * vitest globalSetup of the self-tests: compiles dist/ once (incrementally), for the tests that run the bin as a user
 * does.
 */
export default function buildOnce(): void {
  execFileSync(process.execPath, [`${packageRoot}/node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], {
    cwd: packageRoot,
    stdio: 'inherit',
  })
}
