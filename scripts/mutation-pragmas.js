// The `// Stryker disable` comments of the shipped code (src/, reporters/, suites/) and the argument that each disabled
// mutant is equivalent: the comment keeps a short reason, the argument is in scripts/mutation-equivalents.yaml
// (matched by file and reason) and in docs/mutation.md, its last section, "Why each disabled mutant is equivalent".
//   node scripts/mutation-pragmas.js           rewrites that section of docs/mutation.md
//   node scripts/mutation-pragmas.js --check   names each comment without an argument, each reason over 100
//                                              characters, each argument no comment uses, each comment that
//                                              disables nothing or a mutant its entry does not name, each named
//                                              mutant no comment disables, and a stale section; exit 1
// Which mutants a comment disables is asked of StrykerJS's own instrumenter, so that a mutant swept in beside an
// equivalent one on the same line (a condition's `false` beside its equivalent `true`) is named, not hidden.
// scripts/mutation.js writes the same section when it writes the whole document.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'

export const MAX_REASON_CHARS = 100
export const SECTION_TITLE = '## Why each disabled mutant is equivalent'
const SHIPPED = ['src', 'reporters', 'suites']
// As StrykerJS reads a comment (@stryker-mutator/instrumenter, directive-bookkeeper).
const PRAGMA = /\/\/\s?Stryker disable(?: (next-line))? ([a-zA-Z, ]+)(?::(.+)?)?/

const sourceFiles = (root, folder) =>
  readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()

/** Every disable comment of the shipped code: its file, line, mutators, scope and reason. */
export function pragmasIn(root) {
  return SHIPPED.flatMap((folder) => sourceFiles(root, folder)).flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const match = PRAGMA.exec(text)
        if (!match) return []
        const scope = match[1]
          ? 'the next line'
          : match[2].trim() === 'all'
            ? 'every mutator until restored'
            : 'until restored'
        return [{ file, line: index + 1, mutators: match[2].trim(), scope, reason: (match[3] ?? '').trim() }]
      }),
  )
}

const silentLogger = new Proxy({}, { get: (_, name) => (String(name).startsWith('is') ? () => false : () => {}) })

/**
 * The mutants StrykerJS's instrumenter makes of these sources (name to text), those a disable comment or one of the
 * ignorers leaves out among them, with the status Ignored.
 */
export async function mutantsOf(sources, ignorers = []) {
  const { Instrumenter } = await import('@stryker-mutator/instrumenter')
  const { mutants } = await new Instrumenter(silentLogger).instrument(
    [...sources].map(([name, content]) => ({ name, content, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers, noHeader: true },
  )
  return mutants
}

/** The mutants StrykerJS's instrumenter makes of these files of the project, and the files' texts. */
export async function instrumented(root, files, ignorers = []) {
  const sources = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]))
  return { sources, mutants: await mutantsOf(sources, ignorers) }
}

/** Of these files, those StrykerJS makes no mutant of (types, re-exports, a table of numbers 'as const'). */
export async function filesWithoutMutants(root, files) {
  const { mutants } = await instrumented(root, files)
  return files.filter((file) => !mutants.some((m) => m.fileName === file))
}

/**
 * The mutants each comment disables, as the instrumenter marks them (status Ignored, the comment's reason as the
 * status reason): a mutant is the comment's when the comment is the last one before it in its file with that reason.
 * Returns the pragmas, each with its `disabled` mutants: the source text and what it becomes.
 */
export async function withDisabledMutants(root, pragmas = pragmasIn(root)) {
  const { sources, mutants } = await instrumented(root, [...new Set(pragmas.map((p) => p.file))])
  const ownerOf = (mutant) =>
    pragmas.findLast(
      (p) =>
        p.file === mutant.fileName &&
        p.line <= mutant.location.start.line + 1 &&
        (mutant.statusReason ?? '').includes(p.reason),
    )
  const textOf = (mutant) => {
    const lines = sources.get(mutant.fileName).split('\n')
    const { start, end } = mutant.location
    return start.line === end.line
      ? lines[start.line].slice(start.column, end.column)
      : `${lines[start.line].slice(start.column)} …`
  }
  const ignored = mutants.filter((m) => m.status === 'Ignored')
  return pragmas.map((pragma) => ({
    ...pragma,
    disabled: ignored
      .filter((m) => ownerOf(m) === pragma)
      .map((m) => ({ mutator: m.mutatorName, line: m.location.start.line + 1, from: textOf(m), to: m.replacement })),
  }))
}

const described = (mutant) => `\`${mutant.from}\` → \`${mutant.to}\``

export const equivalentsOf = (root) =>
  parseYaml(readFileSync(join(root, 'scripts/mutation-equivalents.yaml'), 'utf8')) ?? []

const entryOf = (equivalents, pragma) => equivalents.find((e) => e.file === pragma.file && e.reason === pragma.reason)
const argumentOf = (equivalents, pragma) => entryOf(equivalents, pragma)?.argument
const disablesOf = (equivalents, pragma) => entryOf(equivalents, pragma)?.disables ?? []

/** The section of docs/mutation.md: each comment by file (identical ones once, counted), its reason and argument. */
export async function pragmaSection(root) {
  const equivalents = equivalentsOf(root)
  const groups = new Map()
  for (const pragma of await withDisabledMutants(root)) {
    const key = JSON.stringify([pragma.file, pragma.mutators, pragma.scope, pragma.reason])
    const group = groups.get(key)
    groups.set(key, {
      ...pragma,
      count: (group?.count ?? 0) + 1,
      disabled: [...(group?.disabled ?? []), ...pragma.disabled],
    })
  }
  const files = [...new Set([...groups.values()].map((g) => g.file))]
  return [
    SECTION_TITLE,
    '',
    'Each `// Stryker disable` comment of the shipped code, by file: the mutators it disables, where, its reason (the',
    "comment's text), the mutant it disables (as StrykerJS's instrumenter finds it) and the argument that the mutant",
    'is equivalent (`scripts/mutation-equivalents.yaml`). Each mutant a comment disables is named, and argued, in its',
    "entry's `disables`: `node scripts/mutation-pragmas.js --check` (run by `npm test`) names a comment that disables",
    'nothing or a mutant its entry does not name (one swept in beside an equivalent one), and a named mutant no comment',
    'disables.',
    '',
    ...files.flatMap((file) => [
      `### ${file}`,
      '',
      ...[...groups.values()]
        .filter((g) => g.file === file)
        .map(
          (g) =>
            `- ${g.mutators}, ${g.scope}${g.count > 1 ? ` (${g.count} comments)` : ''}: "${g.reason}" ` +
            `(${[...new Set(g.disabled.map(described))].join('; ') || 'nothing'}). ` +
            (argumentOf(equivalents, g) ?? 'No argument written yet.'),
        ),
      '',
    ]),
  ]
}

/** Where the section begins in a whole document; it is the document's last. */
const sectionStart = (document) => {
  const at = document.indexOf(`\n${SECTION_TITLE}\n`)
  return at === -1 ? undefined : at + 1
}

export async function problemsIn(root, documentPath = join(root, 'docs/mutation.md')) {
  const pragmas = await withDisabledMutants(root)
  const equivalents = equivalentsOf(root)
  const where = (p) => `${p.file}:${p.line}`
  const document = readFileSync(documentPath, 'utf8')
  const start = sectionStart(document)
  return [
    ...pragmas
      .filter((p) => p.reason.length > MAX_REASON_CHARS)
      .map((p) => `${where(p)}: a reason of ${p.reason.length} characters (at most ${MAX_REASON_CHARS})`),
    ...pragmas
      .filter((p) => argumentOf(equivalents, p) === undefined)
      .map((p) => `${where(p)}: no argument in scripts/mutation-equivalents.yaml for "${p.reason}"`),
    ...pragmas.filter((p) => p.disabled.length === 0).map((p) => `${where(p)}: disables no mutant of ${p.mutators}`),
    ...pragmas.flatMap((p) =>
      p.disabled
        .filter((m) => !disablesOf(equivalents, p).includes(described(m)))
        .map((m) => `${where(p)}: disables ${described(m)}, which its entry's \`disables\` does not argue`),
    ),
    ...equivalents.flatMap((e) =>
      (e.disables ?? [])
        .filter(
          (d) =>
            !pragmas.some(
              (p) => p.file === e.file && p.reason === e.reason && p.disabled.some((m) => described(m) === d),
            ),
        )
        .map(
          (d) =>
            `scripts/mutation-equivalents.yaml: no comment in ${e.file} with the reason "${e.reason}" disables ${d}`,
        ),
    ),
    ...equivalents
      .filter((e) => !pragmas.some((p) => p.file === e.file && p.reason === e.reason))
      .map((e) => `scripts/mutation-equivalents.yaml: no comment in ${e.file} gives the reason "${e.reason}"`),
    ...(start !== undefined && document.slice(start) === (await pragmaSection(root)).join('\n')
      ? []
      : [`${relative(root, documentPath)}: "${SECTION_TITLE.slice(3)}" is stale (node scripts/mutation-pragmas.js)`]),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..')
  const documentPath = join(root, 'docs/mutation.md')
  if (process.argv[2] === '--check') {
    const problems = await problemsIn(root, documentPath)
    for (const problem of problems) console.error(problem)
    process.exit(problems.length === 0 ? 0 : 1)
  }
  const document = readFileSync(documentPath, 'utf8')
  const start = sectionStart(document) ?? document.replace(/\n*$/, '\n\n').length
  writeFileSync(documentPath, document.replace(/\n*$/, '\n\n').slice(0, start) + (await pragmaSection(root)).join('\n'))
  console.log(`${documentPath}: ${SECTION_TITLE.slice(3)} written`)
}
