// What a part of npm run mutation has still to measure: the mutants StrykerJS makes today of the part's files that its
// committed result (mutation/results/<part>.json) does not hold as they read today. A run measures these alone, on the
// lines they span, and merges what it finds into the result (scripts/mutation-results.js, mergeResult).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { minimatch } from 'minimatch'
import { instrumented } from './mutation-pragmas.js'
import { keyOf } from './mutation-results.js'

/** Of these files, those a part's `mutate` patterns select, as StrykerJS reads them: a `!` pattern takes files out. */
export function filesOf(mutate, files) {
  return files.filter((file) =>
    mutate.reduce(
      (selected, pattern) =>
        pattern.startsWith('!') ? selected && !minimatch(file, pattern.slice(1)) : selected || minimatch(file, pattern),
      false,
    ),
  )
}

/** The ignorers a part's config names, from the plugins it loads from the project (mutation/top-level-only.mjs). */
async function ignorersOf(root, config) {
  const local = (config.plugins ?? []).filter((plugin) => plugin.startsWith('.'))
  const plugins = (
    await Promise.all(
      local.map(async (plugin) => (await import(pathToFileURL(join(root, plugin)).href)).strykerPlugins),
    )
  ).flat()
  return (config.ignorers ?? []).map((name) => plugins.find((plugin) => plugin.name === name).value)
}

/**
 * The mutants StrykerJS's instrumenter makes today of these files under a part's config, as a part's result names them
 * (lines and columns from 1): those its ignorers or a disable comment leave out have the status Ignored.
 */
export async function mutantsToday(root, config, files) {
  const { mutants } = await instrumented(root, files, await ignorersOf(root, config))
  return mutants.map((m) => ({
    file: m.fileName,
    at: `${m.location.start.line + 1}:${m.location.start.column + 1}`,
    end: `${m.location.end.line + 1}:${m.location.end.column + 1}`,
    mutator: m.mutatorName,
    to: m.replacement,
    ignored: m.status === 'Ignored',
  }))
}

const UNDETECTED = ['Survived', 'NoCoverage']

/** An ignorer's reason: the mutant was left to another part, and is to be measured where the ignorer now keeps it. */
const LEFT_TO_ANOTHER_PART = /measured by another part/

/**
 * The mutants of today that a result does not hold as they read today: new ones (ignored ones too, so that the result
 * names them), those on a line that reads otherwise than when the part ran, and those an ignorer left to another part
 * that it keeps today; with survivors, those it holds undetected too (to measure them again after tests were added).
 * sourceOf gives a file's text.
 */
export function pendingOf(today, result, sourceOf, { survivors = false } = {}) {
  const held = new Map()
  for (const [file, { lines, mutants }] of Object.entries(result?.files ?? {})) {
    const source = sourceOf(file)?.split('\n') ?? []
    for (const m of mutants) {
      const line = Number(m.at.split(':')[0])
      if (source[line - 1] === lines[line]) held.set(`${file}@${keyOf(m)}`, m)
    }
  }
  return today.filter((m) => {
    const known = held.get(`${m.file}@${keyOf(m)}`)
    if (known === undefined) return true
    if (survivors && UNDETECTED.includes(known.status)) return true
    return known.status === 'Ignored' && LEFT_TO_ANOTHER_PART.test(known.why ?? '') && !m.ignored
  })
}

/** The lines the pending mutants span, file by file, as StrykerJS's --mutate reads them (`file:first-last`, merged). */
export function rangesOf(pending) {
  const byFile = new Map()
  for (const m of pending) {
    const span = [Number(m.at.split(':')[0]), Number(m.end.split(':')[0])]
    byFile.set(m.file, [...(byFile.get(m.file) ?? []), span])
  }
  return [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, spans]) => {
      const merged = []
      for (const [first, last] of spans.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
        const previous = merged.at(-1)
        if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last)
        else merged.push([first, last])
      }
      return merged.map(([first, last]) => `${file}:${first}-${last}`)
    })
}
