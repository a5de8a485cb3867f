import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageRoot } from '../src/core/package-root.js'
import type { Har } from '../src/har/types.js'

export interface CheckHarRssFigures {
  fileMiB: number
  entries: number
  peakRssMiB: number
  wallMs: number
  exitCode: number | null
}

/**
 * `check-har` (the bin, under GNU time for its peak resident memory) of a HAR of about `targetBytes`, made by repeating
 * the entries of a run's own HAR (real exchanges of the reference). The HAR is written to a temporary folder and
 * removed after.
 */
export function measureCheckHarRss(runHar: string, targetBytes: number): CheckHarRssFigures {
  const dir = mkdtempSync(join(tmpdir(), 'ipts-bench-check-har-'))
  try {
    const entries = (JSON.parse(readFileSync(runHar, 'utf8')) as Har).log.entries.map((entry) => JSON.stringify(entry))
    const file = join(dir, 'large.har')
    const fd = openSync(file, 'w')
    let written = writeSync(
      fd,
      '{"log":{"version":"1.2","creator":{"name":"ipts-conformance bench","version":"1"},"entries":[\n',
    )
    let count = 0
    while (written < targetBytes)
      written += writeSync(fd, `${count === 0 ? '' : ',\n'}${entries[count++ % entries.length]}`)
    writeSync(fd, '\n]}}\n')
    closeSync(fd)
    const started = performance.now()
    const run = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        'peak-rss-kib %M',
        process.execPath,
        join(packageRoot, 'bin', 'ipts-conformance.js'),
        'check-har',
        file,
        '--report-dir',
        join(dir, 'report'),
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    )
    const wallMs = performance.now() - started
    const kib = Number(/peak-rss-kib (\d+)/.exec(run.stderr)?.[1] ?? NaN)
    return {
      fileMiB: statSync(file).size / 1024 / 1024,
      entries: count,
      peakRssMiB: kib / 1024,
      wallMs,
      exitCode: run.status,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
