// The results of a part of npm run mutation, kept in the repository (mutation/results/<part>.json) so that
// docs/mutation.md can be written again on another machine, from every part's last run, when one part ran again:
// StrykerJS's own JSON report (reports/, not committed) holds each file's whole source and is lost with the machine.
// A result keeps, of each mutant, where it is, what it does and its status, and the text of each line a mutant is on:
// a mutant counts only where its line still reads the same in the code of today.
import { existsSync, readFileSync } from 'node:fs'
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
        .sort(byPlace),
    }
  }
  return { run, files }
}

const compareAt = (a, b) => {
  const [lineA, columnA] = a.split(':').map(Number)
  const [lineB, columnB] = b.split(':').map(Number)
  return lineA - lineB || columnA - columnB
}

/** What tells one mutant from another: where it starts and ends, its mutator and what it puts there. */
export const keyOf = (m) => `${m.at}-${m.end}:${m.mutator}:${m.to}`

const byPlace = (a, b) =>
  compareAt(a.at, b.at) || compareAt(a.end, b.end) || a.mutator.localeCompare(b.mutator) || a.to.localeCompare(b.to)

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

export function readResult(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined
}

/**
 * How far a status proves a mutant: one a part's tests detected is detected, whichever other part ran it without
 * detecting it (a function's body run as its module loads and by tests: its file's part and a static part both run it),
 * and a part that ignores a mutant another part measured does not hide it.
 */
const standing = (status) => (['Killed', 'Timeout'].includes(status) ? 2 : status === 'Ignored' ? 0 : 1)

/**
 * One row a file from the results of several parts, read against the code of today (sourceOf gives a file's text, or
 * undefined where it is gone; each file is read once, and its row holds its lines): of each mutant, the status that
 * proves most (standing), of the latest run among equals, and only where its line reads as it did when its part ran;
 * the others are counted as stale, measured on code that has changed since.
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
        const known = row.mutants.get(keyOf(m))
        if (!known || standing(m.status) >= standing(known.status)) row.mutants.set(keyOf(m), mutant)
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

/**
 * A part's result with a run over some of its lines merged in (report: StrykerJS's JSON report of that run; ranges:
 * the `file:first-last` it mutated; run: when it ran and how long it took): of each file the run reports, the mutants
 * on those lines, those on a line that reads otherwise today, and those the report holds (StrykerJS's incremental mode
 * adds those of its earlier runs) are replaced by what the run found. The run is added to the part's record of runs
 * since its whole one (run.since), with the number of mutants it measured on those lines.
 */
export function mergeResult(result, report, ranges, run, sourceOf) {
  const fresh = resultOf(report, run)
  const spans = ranges.map((range) => {
    const [file, lines] = range.split(':')
    const [first, last] = lines.split('-').map(Number)
    return { file, first, last }
  })
  // A mutant the run mutated: StrykerJS mutates those whose lines lie within a span, not one that reaches beyond it.
  const mutated = (file, m) => {
    const [start, end] = [m.at, m.end].map((at) => Number(at.split(':')[0]))
    return spans.some((s) => s.file === file && start >= s.first && end <= s.last)
  }
  const files = { ...result.files }
  for (const [file, { lines: freshLines, mutants: freshMutants }] of Object.entries(fresh.files)) {
    const today = sourceOf(file)?.split('\n') ?? []
    const { lines: heldLines, mutants: held } = result.files[file] ?? { lines: {}, mutants: [] }
    const lineOf = (m) => m.at.split(':')[0]
    // StrykerJS's incremental mode reports mutants of earlier runs beside those the run measured.
    const reported = new Set(freshMutants.map(keyOf))
    const kept = held.filter(
      (m) => today[lineOf(m) - 1] === heldLines[lineOf(m)] && !mutated(file, m) && !reported.has(keyOf(m)),
    )
    const lines = {}
    for (const m of kept) lines[lineOf(m)] = heldLines[lineOf(m)]
    for (const m of freshMutants) lines[lineOf(m)] = freshLines[lineOf(m)]
    files[file] = { lines, mutants: [...kept, ...freshMutants].sort(byPlace) }
  }
  const mutants = Object.entries(fresh.files).reduce(
    (sum, [file, { mutants }]) => sum + mutants.filter((m) => mutated(file, m)).length,
    0,
  )
  return {
    run: { ...result.run, since: [...(result.run?.since ?? []), { ...run, mutants }] },
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))),
  }
}
