import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { packageRoot } from '../src/core/package-root.js'

const BIN = join(packageRoot, 'bin', 'ipts-conformance.js')

/** Median wall time of a command over some runs, in ms; the first run is a warm-up and not counted. */
export function medianMs(command: string, args: readonly string[], runs = 5): number {
  const times: number[] = []
  for (let i = 0; i <= runs; i++) {
    const started = performance.now()
    const result = spawnSync(command, args, { cwd: packageRoot, stdio: 'ignore' })
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`)
    if (i > 0) times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!
}

/** Start-up: the CLI's --help from the bin, and through `npm start` (dist fresh, so no compile). */
export function startupMs(): { bin: number; npmStart: number } {
  return {
    bin: medianMs(process.execPath, [BIN, '--help']),
    npmStart: medianMs('npm', ['start', '--silent', '--', '--help']),
  }
}

/**
 * Peak resident memory of a default run of the bin (embedded reference, every check) in a process of its own, suite
 * workers included.
 */
export function peakRssOfDefaultRun(seed: number): Promise<{ peakMb: number; exitCode: number }> {
  const argv = [
    process.execPath,
    BIN,
    '--report-dir',
    mkdtempSync(join(tmpdir(), 'ipts-bench-')),
    '--seed',
    String(seed),
  ]
  const script = `process.on('exit', () => process.stderr.write('maxrss ' + process.resourceUsage().maxRSS + '\\n'))
process.argv = ${JSON.stringify(argv)}
await import(${JSON.stringify(pathToFileURL(BIN).href)})`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let err = ''
  child.stderr.on('data', (chunk) => (err += chunk))
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const kb = /maxrss (\d+)/.exec(err)?.[1]
      if (!kb) reject(new Error(`the run reported no peak memory: ${err}`))
      else resolve({ peakMb: Number(kb) / 1024, exitCode: code ?? 1 })
    }),
  )
}
