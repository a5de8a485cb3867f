// The `// Stryker disable` comments of the shipped code (src/, reporters/, suites/) and the argument that each disabled
// mutant is equivalent: the comment keeps a short reason, the argument is in scripts/mutation-equivalents.yaml
// (matched by file and reason) and in docs/mutation.md, its last section, "Why each disabled mutant is equivalent".
//   node scripts/mutation-pragmas.js           rewrites that section of docs/mutation.md
//   node scripts/mutation-pragmas.js --check   names each comment without an argument, each reason over 100
//                                              characters, each argument no comment uses and a stale section; exit 1
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

export const equivalentsOf = (root) =>
  parseYaml(readFileSync(join(root, 'scripts/mutation-equivalents.yaml'), 'utf8')) ?? []

const argumentOf = (equivalents, pragma) =>
  equivalents.find((e) => e.file === pragma.file && e.reason === pragma.reason)?.argument

/** The section of docs/mutation.md: each comment by file (identical ones once, counted), its reason and argument. */
export function pragmaSection(root) {
  const equivalents = equivalentsOf(root)
  const groups = new Map()
  for (const pragma of pragmasIn(root)) {
    const key = JSON.stringify([pragma.file, pragma.mutators, pragma.scope, pragma.reason])
    groups.set(key, { ...pragma, count: (groups.get(key)?.count ?? 0) + 1 })
  }
  const files = [...new Set([...groups.values()].map((g) => g.file))]
  return [
    SECTION_TITLE,
    '',
    'Each `// Stryker disable` comment of the shipped code, by file: the mutators it disables, where, its reason (the',
    "comment's text) and the argument that the mutants it disables are equivalent",
    '(`scripts/mutation-equivalents.yaml`). A `next-line` comment covers the line its statement begins on; where',
    'Prettier would spread that line over several, a `// prettier-ignore` after the comment keeps it whole.',
    '',
    ...files.flatMap((file) => [
      `### ${file}`,
      '',
      ...[...groups.values()]
        .filter((g) => g.file === file)
        .map(
          (g) =>
            `- ${g.mutators}, ${g.scope}${g.count > 1 ? ` (${g.count} comments)` : ''}: "${g.reason}". ` +
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

export function problemsIn(root, documentPath = join(root, 'docs/mutation.md')) {
  const pragmas = pragmasIn(root)
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
    ...equivalents
      .filter((e) => !pragmas.some((p) => p.file === e.file && p.reason === e.reason))
      .map((e) => `scripts/mutation-equivalents.yaml: no comment in ${e.file} gives the reason "${e.reason}"`),
    ...(start !== undefined && document.slice(start) === pragmaSection(root).join('\n')
      ? []
      : [`${relative(root, documentPath)}: "${SECTION_TITLE.slice(3)}" is stale (node scripts/mutation-pragmas.js)`]),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..')
  const documentPath = join(root, 'docs/mutation.md')
  if (process.argv[2] === '--check') {
    const problems = problemsIn(root, documentPath)
    for (const problem of problems) console.error(problem)
    process.exit(problems.length === 0 ? 0 : 1)
  }
  const document = readFileSync(documentPath, 'utf8')
  const start = sectionStart(document) ?? document.replace(/\n*$/, '\n\n').length
  writeFileSync(documentPath, document.replace(/\n*$/, '\n\n').slice(0, start) + pragmaSection(root).join('\n'))
  console.log(`${documentPath}: ${SECTION_TITLE.slice(3)} written`)
}
