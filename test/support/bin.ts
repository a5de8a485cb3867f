import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { packageRoot } from '../../src/core/package-root.js'

export const BIN = join(packageRoot, 'bin', 'ipts-conformance.js')

/** The bin (built by the self-tests' global setup) as a child process, as a user starts it. */
export function spawnBin(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    stdio: 'pipe',
  })
}

/** The child's first line of standard output. */
export function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', (line) => (lines.close(), resolve(line)))
    child.once('exit', (code) => reject(new Error(`exited ${code} before a line`)))
  })
}

export function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}
