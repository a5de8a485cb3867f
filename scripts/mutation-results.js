// The results of a part of npm run mutation, kept in the repository (mutation/results/<part>.json) so that
// docs/mutation.md can be written again on another machine, from every part's last run, when one part ran again:
// StrykerJS's own JSON report (reports/, not committed) holds each file's whole source and is lost with the machine.
// A result keeps, of each mutant, where it is, what it does and its status, and the text of each line a mutant is on:
// a mutant counts only where its line still reads the same in the code of today.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The result of one part's run from StrykerJS's JSON report: its mutants and the text of their lines. */
export function resultOf(report, run) {
  const files = {}
  for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const sourceLines = source.split('\n')
    const lines = {}
    for (const m of mutants) lines[m.location.start.line] = sourceLines[m.location.start.line - 1]
    files[file] = {
      lines,
      mutants: mutants
        .map((m) => ({
          at: `${m.location.start.line}:${m.location.start.column}`,
          // Two mutants of one mutator may start at one place (a condition and its first operand): their ends differ.
          end: `${m.location.end.line}:${m.location.end.column}`,
          mutator: m.mutatorName,
          to: m.replacement ?? '',
          status: m.status,
          // Only an ignored mutant's reason is read: a disable comment's, or why its part left it out.
          ...(m.status === 'Ignored' && m.statusReason ? { why: m.statusReason } : {}),
        }))
        .sort(
          (a, b) =>
            compareAt(a.at, b.at) ||
            compareAt(a.end, b.end) ||
            a.mutator.localeCompare(b.mutator) ||
            a.to.localeCompare(b.to),
        ),
    }
  }
  return { run, files }
}

const compareAt = (a, b) => {
  const [lineA, columnA] = a.split(':').map(Number)
  const [lineB, columnB] = b.split(':').map(Number)
  return lineA - lineB || columnA - columnB
}

/** A result as JSON with one mutant a line, so that a run again shows in a diff as the mutants whose status changed. */
export function resultText(result) {
  const fileTexts = Object.entries(result.files).map(
    ([file, { lines, mutants }]) =>
      `    ${JSON.stringify(file)}: {\n      "lines": ${JSON.stringify(lines)},\n      "mutants": [\n` +
      mutants.map((m) => `        ${JSON.stringify(m)}`).join(',\n') +
      '\n      ]\n    }',
  )
  return `{\n  "run": ${JSON.stringify(result.run)},\n  "files": {\n${fileTexts.join(',\n')}\n  }\n}\n`
}

export function writeResult(path, report, run) {
  writeFileSync(path, resultText(resultOf(report, run)))
}

export function readResult(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined
}

/**
 * One row a file from the results of several parts, read against the code of today (sourceOf gives a file's text, or
 * undefined where it is gone; each file is read once, and its row holds its lines): of each mutant, the latest run's
 * status (a part that ignores a mutant another part measured does not hide it), and only where its line reads as it
 * did when its part ran; the others are counted as stale, measured on code that has changed since.
 */
export function rowsOf(results, sourceOf) {
  const byFile = new Map()
  let stale = 0
  const byTime = [...results].sort((a, b) => (a.run?.when ?? '').localeCompare(b.run?.when ?? ''))
  for (const { files } of byTime) {
    for (const [file, { lines, mutants }] of Object.entries(files)) {
      if (!byFile.has(file)) {
        const source = sourceOf(file)
        byFile.set(file, source === undefined ? undefined : { file, lines: source.split('\n'), mutants: new Map() })
      }
      const row = byFile.get(file)
      if (row === undefined) {
        stale += mutants.length
        continue
      }
      for (const m of mutants) {
        const [line, column] = m.at.split(':').map(Number)
        const [endLine, endColumn] = m.end.split(':').map(Number)
        if (row.lines[line - 1] !== lines[line]) {
          stale++
          continue
        }
        const mutant = {
          location: { start: { line, column }, end: { line: endLine, column: endColumn } },
          mutatorName: m.mutator,
          replacement: m.to,
          status: m.status,
          statusReason: m.why,
        }
        const key = `${m.at}-${m.end}:${m.mutator}:${m.to}`
        const known = row.mutants.get(key)
        if (!known || known.status === 'Ignored' || m.status !== 'Ignored') row.mutants.set(key, mutant)
      }
    }
  }
  const rows = [...byFile.values()]
    .filter((row) => row !== undefined)
    .map((row) => ({ ...row, mutants: [...row.mutants.values()] }))
  return { rows, stale }
}

/** The text of a file of the project today, or undefined where it is gone. */
export const sourceIn = (root) => (file) =>
  existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined
