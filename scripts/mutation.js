// npm run mutation: runs StrykerJS in parts (their configs are in mutation/, DEFAULT_CONFIGS below), each over its own
// files and judged by its own tests, and writes docs/mutation.md from their JSON reports: the score, when each part ran
// and the time it took, the mutants by status and file, the survivors and the mutants disabled as equivalent with their
// reasons. Each part keeps its result in mutation/results/ (committed), so that a part can be run again by itself
// (node scripts/mutation.js mutation/stryker.http.config.mjs) and the document written from every part's last run.
// A part measures only what its result does not hold as the code reads today (scripts/mutation-pending.js: new
// mutants, and those on lines that changed), on the lines they span, and merges what it finds into its result; a part
// with nothing pending does not run. --whole runs each part over all of its files, as a first run does; --survivors
// measures again the mutants its result holds undetected too (after tests were added to kill them).
//   node scripts/mutation.js [--whole|--survivors] [config…] [-- stryker options]
//     runs each config, then writes the document
//   node scripts/mutation.js --report-only [config…]
//     writes the document from the last results
// With configs other than the default ones, the document goes beside the first one's JSON report, not to docs/ (or to
// MUTATION_DOC); MUTATION_CONDITIONS adds a note on how the run was made. A part without a result is named as not
// measured.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { filesWithoutMutants, pragmaSection } from './mutation-pragmas.js'
import { filesOf, mutantsToday, pendingOf, rangesOf } from './mutation-pending.js'
import { mergeResult, readResult, resultOf, resultText, rowsOf, sourceIn } from './mutation-results.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_CONFIGS = [
  'mutation/stryker.secrets.config.mjs',
  'mutation/stryker.judges.config.mjs',
  'mutation/stryker.static.config.mjs',
  'mutation/stryker.static-checks.config.mjs',
  'mutation/stryker.traffic.config.mjs',
  'mutation/stryker.http.config.mjs',
  'mutation/stryker.engine.config.mjs',
  'mutation/stryker.model.config.mjs',
  'mutation/stryker.inputs.config.mjs',
  'mutation/stryker.reports.config.mjs',
  'mutation/stryker.docs.config.mjs',
  'mutation/stryker.front-static.config.mjs',
  'mutation/stryker.front.config.mjs',
  'mutation/stryker.config.mjs',
]
const args = process.argv.slice(2)
const reportOnly = args[0] === '--report-only'
if (reportOnly) args.shift()
const whole = args[0] === '--whole'
if (whole) args.shift()
const undetectedAgain = args[0] === '--survivors'
if (undetectedAgain) args.shift()
const dashes = args.indexOf('--')
const strykerArgs = dashes === -1 ? [] : args.slice(dashes + 1)
const named = dashes === -1 ? args : args.slice(0, dashes)
const configFiles = named.length > 0 ? named : DEFAULT_CONFIGS
const configs = await Promise.all(
  configFiles.map(async (file) => ({ file, config: (await import(pathToFileURL(join(root, file)).href)).default })),
)
const jsonReports = configs.map(({ config }) =>
  join(root, config.jsonReporter?.fileName ?? 'reports/mutation/mutation.json'),
)
const isFullRun = configFiles.join() === DEFAULT_CONFIGS.join()
const documentPath = process.env.MUTATION_DOC
  ? join(root, process.env.MUTATION_DOC)
  : isFullRun
    ? join(root, 'docs/mutation.md')
    : join(dirname(jsonReports[0]), 'mutation.md')

const DETECTED = ['Killed', 'Timeout']
const UNDETECTED = ['Survived', 'NoCoverage']
const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError', 'RuntimeError']

const givenConcurrency = strykerArgs.includes('--concurrency')
  ? Number(strykerArgs[strykerArgs.indexOf('--concurrency') + 1])
  : undefined
// StrykerJS's own default: as many workers as cores, one fewer above four.
const concurrencyOf = (config) =>
  givenConcurrency ??
  config.concurrency ??
  (availableParallelism() > 4 ? availableParallelism() - 1 : availableParallelism())
const whenOf = (time) => new Date(time).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
// Each part's result (scripts/mutation-results.js), with when and how long its run took: the default parts' in
// mutation/results/ (committed, so that the document can be written again on another machine from every part's last
// run: --report-only, after a reason is added, or after one part ran again), any other's beside its JSON report.
const resultPaths = configs.map(({ file }, i) => {
  const name = basename(jsonReports[i], '.json')
  return DEFAULT_CONFIGS.includes(file)
    ? join(root, 'mutation/results', `${name}.json`)
    : join(dirname(jsonReports[i]), `${name}.results.json`)
})
const tsFilesUnder = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
// Every file of src/ and reporters/ but the reference server (the oracle the self-tests run against, not judging code:
// docs/mutation.md): those a part mutates, and those this document's reports leave out.
const fullScope = [...tsFilesUnder('src'), ...tsFilesUnder('reporters')].filter(
  (file) => !file.startsWith('src/reference/'),
)
if (!reportOnly) {
  // Of each part, the lines to mutate (--mutate), or undefined for all of its files: a first run, or --whole.
  const pending = await Promise.all(
    configs.map(async ({ config }, i) => {
      const held = readResult(resultPaths[i])
      if (whole || held === undefined) return undefined
      const today = await mutantsToday(root, config, filesOf(config.mutate ?? [], fullScope))
      return rangesOf(pendingOf(today, held, sourceIn(root), { survivors: undetectedAgain }))
    }),
  )
  // The write checks run the reference's signer through the bin, which runs the build.
  if (pending.some((ranges) => ranges === undefined || ranges.length > 0)) {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
    if (build.status !== 0) process.exit(build.status ?? 1)
  }
  for (const [i, { file, config }] of configs.entries()) {
    const ranges = pending[i]
    if (ranges?.length === 0) {
      console.log(`${file}: nothing to measure (its result holds every mutant of the code as it reads today)`)
      continue
    }
    if (ranges)
      console.log(`${file}: measuring the mutants of ${ranges.length} spans of lines its result does not hold`)
    const started = Date.now()
    const stryker = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
        'run',
        file,
        ...(ranges ? ['--mutate', ranges.join(',')] : []),
        ...strykerArgs,
      ],
      { cwd: root, stdio: 'inherit' },
    )
    if (stryker.status !== 0) {
      console.error(`stryker run ${file} exited with ${stryker.status}; ${documentPath} is left as it was`)
      process.exit(stryker.status ?? 1)
    }
    const record = {
      when: whenOf(started),
      seconds: Math.round((Date.now() - started) / 1000),
      concurrency: concurrencyOf(config),
      cores: availableParallelism(),
      conditions: process.env.MUTATION_CONDITIONS,
    }
    const report = JSON.parse(readFileSync(jsonReports[i], 'utf8'))
    const result = ranges
      ? mergeResult(readResult(resultPaths[i]), report, ranges, record, sourceIn(root))
      : resultOf(report, record)
    mkdirSync(dirname(resultPaths[i]), { recursive: true })
    writeFileSync(resultPaths[i], resultText(result))
  }
}
const parts = configs.map(({ file }, i) => ({ file, result: readResult(resultPaths[i]) }))
const measured = parts.filter((part) => part.result !== undefined).map(({ file, result }) => ({ file, ...result }))
const unmeasured = parts.filter((part) => part.result === undefined)
// A file two parts mutate (a check's top-level code in the static part, the rest in the checks part) is one row: of
// each mutant, the part that measured it (the other ignores it), read against the code of today
// (scripts/mutation-results.js).
const { rows, stale: staleMutants } = rowsOf(measured, sourceIn(root))
const count = (mutants, statuses) => mutants.filter((m) => statuses.includes(m.status)).length
const score = (mutants) => {
  const valid = count(mutants, [...DETECTED, ...UNDETECTED])
  return valid === 0 ? 100 : (100 * count(mutants, DETECTED)) / valid
}
const all = rows.flatMap((row) => row.mutants)
const lineOf = (row, mutant) => row.lines[mutant.location.start.line - 1]?.trim() ?? ''
const where = (row, mutant) => `${row.file}:${mutant.location.start.line}`
const cell = (text) => text.replaceAll('|', '\\|').replaceAll('`', "'")
// A part's time: its whole run and the runs over what changed since.
const secondsOf = (run) => (run?.seconds ?? 0) + (run?.since ?? []).reduce((sum, again) => sum + again.seconds, 0)
const sinceText = (since = []) =>
  since.length === 0
    ? ''
    : `; then over what changed since: ${since.map((again) => `${again.when}, ${again.mutants} mutants in ${minutes(again.seconds)} at concurrency ${again.concurrency}${again.conditions ? ` (${again.conditions})` : ''}`).join('; ')}`
const minutes = (seconds) =>
  seconds === undefined ? 'not measured' : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
// Mutants of top-level code (ignoreStatic) are ignored by Stryker itself, and those inside a function or an instance
// field by the static part (its ignorer, mutation/top-level-only.mjs) when the part that measures them has no result;
// the others were disabled in the code, with a reason.
const notInPart = (m) => m.status === 'Ignored' && /static|inside a function|instance field/i.test(m.statusReason ?? '')
const staticIgnored = all.filter(notInPart)
const unmeasuredByFile =
  rows
    .map((row) => ({ file: row.file, count: row.mutants.filter(notInPart).length }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count || a.file.localeCompare(b.file))
    .map(({ file, count }) => `\`${file}\` (${count})`)
    .join(', ') || 'none'
const disabled = rows.flatMap((row) =>
  row.mutants.filter((m) => m.status === 'Ignored' && !notInPart(m)).map((m) => ({ row, m })),
)
// The files no report names.
const outsideReports = fullScope.filter((file) => !rows.some((row) => row.file === file)).sort()
// A file of types alone, or of numbers 'as const', has no mutant: no report names it, and none could.
const withoutMutants = await filesWithoutMutants(root, outsideReports)
const notMutated = outsideReports.filter((file) => !withoutMutants.includes(file))
// The lines of the hand review's survivors, and what kills each now.
const HAND_REVIEW = [
  {
    what: '`cursors/issued-cursor-opaque`, its bare-integer test made to require a sign',
    killedBy:
      '`cursors-bare-integer-cursor-beyond-ids` issues markets cursors that are bare integers but no market\'s ID (the offset plus 1000), and test/checks/cursors.test.ts scripts signed ones ("+1020"), which the pattern\'s sign must also catch.',
    file: 'src/checks/cursors.ts',
    line: "if (/^[+-]?[0-9]+$/.test(cursor)) return 'a bare integer'",
  },
  {
    what: '`every-response/error-code-listed` judging 4xx codes only',
    killedBy:
      '`malformed-hash-500-code-unlisted` sends a 500 with a code the profile does not list (`invalid-cursor-code-unlisted` a 400, for the edge at 400), and test/unit/exchange-rules.test.ts judges a 503.',
    file: 'src/checks/profile-rules.ts',
    line: "valuesOf: (response) => (response.status >= 400 ? stringMember(response, 'code') : []),",
  },
  {
    what: '`properties/garbage-key-refused` accepting any 4xx with an error body',
    killedBy:
      '`properties-key-around-real-key-forbidden` answers a key with a real key inside it with 403 and an error body.',
    file: 'src/checks/properties.ts',
    line: 'async ([id, key]) => answeredWithError(await ctx.call(id, { auth: { key: headerValueOf(key) } }), 401),',
  },
  {
    what: 'the 5xx branch of the receipt refusals',
    killedBy: "`receipt-mismatch-500` answers a receipt that is not the intent's with 500.",
    file: 'src/checks/intents.ts',
    line: 'return refusals.includes(status)',
  },
]
function handReviewStatus(file, text) {
  const row = rows.find((r) => r.file === file)
  if (!row) return 'not mutated in this run'
  const lines = row.lines.map((l, i) => (l.includes(text) ? i + 1 : 0)).filter(Boolean)
  const mutants = row.mutants.filter((m) => lines.includes(m.location.start.line))
  if (mutants.length === 0) return 'no mutant of the line'
  return STATUSES.filter((s) => count(mutants, [s]) > 0)
    .map((s) => `${count(mutants, [s])} ${s}`)
    .join(', ')
}
const survivors = rows.flatMap((row) =>
  row.mutants.filter((m) => UNDETECTED.includes(m.status)).map((m) => ({ row, m })),
)
// Why a mutant survives, where it has been examined (scripts/mutation-survivors.yaml): matched by its file, a piece of
// its line's text and, where given, its mutators, so that a reason follows its line when the lines above it move.
const REASONS = parseYaml(readFileSync(join(root, 'scripts/mutation-survivors.yaml'), 'utf8')) ?? []
const reasonOf = (row, m) =>
  REASONS.find(
    (r) =>
      r.file === row.file &&
      lineOf(row, m).includes(r.line) &&
      (!r.mutators || r.mutators.includes(m.mutatorName)) &&
      (!r.to || r.to === m.replacement),
  )?.reason
const unexamined = survivors.filter(({ row, m }) => reasonOf(row, m) === undefined)
// Reasons that no survivor took though the mutants of their line were measured: those are killed now, and the entry
// should go. (A line that changed since its part's run was not measured as it is: its reason waits for that run.)
const measuredAt = (r) =>
  rows.some(
    (row) => row.file === r.file && row.mutants.some((m) => m.status !== 'Ignored' && lineOf(row, m).includes(r.line)),
  )
const stale = REASONS.filter(
  (r) => measuredAt(r) && !survivors.some(({ row, m }) => reasonOf(row, m) === r.reason && row.file === r.file),
)

const lines = [
  '# Mutation testing',
  '',
  `Generated by \`npm run mutation\` (scripts/mutation.js over ${configFiles.map((f) => `\`${f}\``).join(' and ')}); do not edit by hand.`,
  'StrykerJS mutates the code and runs, for each mutant, only the self-tests that reach it (per-test coverage); a mutant no',
  'test kills is a branch no self-test proves. Each part mutates its own files and is judged by the tests that prove them',
  '(`mutation/stryker.<part>.config.mjs`, `mutation/vitest.mutation-<part>.config.ts`), fast unit tests first:',
  '',
  '- the checks (`src/checks/`, `stryker.config.mjs`), judged by `mutation/vitest.mutation.config.ts`: each check run by itself against the plain reference,',
  '  each fault that names it and the allowances of its concern or that name it (`test/checks/each-check.test.ts`, which pins each',
  "  outcome's reason and the exchange each failure's evidence shows in a snapshot); a check that judges every exchange of",
  "  a run runs, under a fault it finds only in another check's requests, with that check (the fault's `checkWitnesses`); each check",
  '  against a target that stops answering after the probe (it fails with the unanswered request, skips, or is not run);',
  "  the tests of each concern's checks on answers scripted by hand, and on a reference given only some inputs (no trader,",
  '  intent or restricted key) (`test/checks/`, `test/checks/check-inputs.test.ts`);',
  '  the unit tests of the property runner, of the relation rules and of the reading of realtime messages, the realtime',
  '  checks against channels that never answer, close or refuse (`test/runs/realtime-hostile.test.ts`), and the values',
  '  the checks judge with (`test/unit/judged-edges.test.ts`);',
  '- the every-response rules (`src/checks/every-response.ts`, `profile-rules.ts`, `exchange-judge.ts`), the code that',
  '  decides pass, fail and skip (`src/engine/run-check.ts`, `src/engine/judged-outcomes.ts`, `src/engine/summarize.ts`)',
  "  and what every check's run goes through (`src/checks/needs.ts`, `types.ts`, `index.ts`) (`judges`):",
  '  each rule under each fault that names it (through the traffic of one witness check), the rules on the plain',
  '  reference, each rule on responses made by hand (`test/unit/exchange-rules.test.ts`) and at the edges of the values',
  '  it judges with (`test/unit/judged-edges.test.ts`), and the unit tests of the verdict (`test/unit/verdict-units.test.ts`);',
  '- the top-level code of the model, the engine, the HTTP client, the redaction, the traffic adapters and the verdict',
  '  files (`static`): the tables, patterns, lists and bounds they judge with, which their parts leave out',
  '  (`ignoreStatic`: every test runs for such a mutant, in a fresh module graph; the ignorer `mutation/top-level-only.mjs`',
  '  keeps the code a module runs as it loads, its top-level code and the bodies of the functions that code calls (a table',
  "  built by a call, a callback of `map`), and leaves the rest, an instance field's initializer too, to the other parts); judged by their",
  '  unit tests, gathered in one file (`mutation/static.test.ts`), so that a mutant costs one import of src/ (one a test',
  '  file made a mutant no test kills cost 10 s in a worker);',
  "- the checks' top-level code (`static-checks`): their definitions (IDs, requirements, what each needs) and the tables",
  "  and helpers each judges with, judged by the checks' tests on answers scripted by hand and the catalogue's",
  '  (`mutation/static-checks.test.ts`), not by whole runs;',
  '- the redaction of secrets and the decoded views it reads a text through (`src/http/secrets.ts`,',
  '  `src/http/decoded-views.ts`, `secrets`), judged by their unit tests alone (`test/unit/redaction.test.ts`,',
  '  `test/unit/secret-forms.test.ts`, then `test/unit/redaction-bounds.test.ts`, its long texts): every run redacts, so',
  '  the runs would cover each of its mutants at the cost of every run, and prove none of its branches;',
  '- the traffic adapters and the HAR (`src/traffic/`, `src/har/`, `traffic`), judged by their unit tests (the spool, the',
  '  judgement of recorded traffic, learned secrets, write keys, listed material, WebSocket frames made by hand, and the',
  '  proxy server run in the test process against an upstream on 127.0.0.1);',
  '- the HTTP client (`src/http/` but the redaction and its decoded views, `http`), judged by its unit tests;',
  '- the engine but the verdict code (`src/engine/`, `engine`): the check context, evidence, observations, relations, the',
  '  last sweep and the soak, the read set, coverage and traceability, judged by their unit tests (a check context on a',
  '  client made by hand, the rounds on a deployment made by hand, evidence, requirements and coverage of outcomes made',
  '  by hand) and the shared-read and verdict tests of the checks;',
  '- the model and the generators (`src/core/`, `src/contract/`, `src/profile/`, `src/generators/`, `model`), judged by',
  '  their unit tests, the profile tests and the tests of the catalogue;',
  '- the reading of the inputs and the refusal of bad ones (`src/cli/flags.ts`, `options.ts`, `subcommand-args.ts`,',
  '  `src/runner/options.ts`, `validate-options.ts`, `inputs`), their top-level code too (the table of flags), judged by',
  "  the unit tests of the inputs' edges, the CLI given flags in this process and the test of the docs: seconds a run,",
  '  so that each mutant of the table of flags can run them all;',
  "- the report writers (`reporters/`, `reports`), their top-level code too (the page's style and script, the tables of",
  '  labels), judged by their unit tests and the tests that render, write, compare and open in Chromium the reports of',
  '  whole runs, runs made once before the mutants (`mutation/reference-reports.ts`): no mutant of a writer changes them;',
  '- the writers of the generated docs and catalogue files (`src/docs/`, `docs`), their top-level code too, judged by the',
  '  tests that hold what they write to the committed files;',
  "- the front ends' top-level code (`front-static`): the tables of each command's flags and help, the profile template,",
  "  the preflight's messages and the errors it names, judged by the tests that read those tables in seconds (the unit",
  '  tests of the flags, the CLI given flags in this process, the preflight, `profile init` and the test of the docs);',
  '- the rest of the front ends (`src/cli/`, `src/runner/`, `src/vitest/`, `src/index.ts`, `front`) but the inputs,',
  '  judged per test by the surface tests that run each command in this process (a run, its preflight, interruption,',
  '  waivers, replay and report files; `check-har`, `proxy`, `compare`, `profile init`) and the unit tests of the harness.',
  '',
  'The parts below the checks are judged by unit tests, not by the surfaces (`ipts check-har`, `ipts proxy`) nor the runs',
  '(`test/runs/`): a mutant of the client, the context or the judgement of traffic is reached by each of their tests, a',
  'minute a mutant on two cores (the traffic part with the surfaces measured 3 mutants a minute). What only a surface',
  'or a run reaches is a survivor or not covered here, listed below.',
  'The reference server',
  '(`src/reference/`) is not mutated: it is the oracle the self-tests run against, not code that judges a target; its',
  'mutants would be killed, or not, by the runs of every check against it (each a whole run per mutant), and a',
  'mutant of it that no test notices is a reference that still behaves as the contract says. Its faults are proved by',
  '`test/runs/faults.test.ts` instead: each makes exactly the checks it names fail.',
  '',
  'A mutant under which a test file fails to load (a table or pattern of top-level code that makes its module throw on',
  'import) is detected: every mutation config reports such a file as a failed test (`mutation/load-failures.ts`), where',
  "StrykerJS's vitest runner alone would count the mutant survived (stryker-js#6150).",
  '',
  'CI (`.ci/run`, Node 20) runs `test/checks/each-check.test.ts` whole, then `npm run mutation:ci`: StrykerJS over a fixed sample',
  '(the checks of auth; the profile rules and the verdict code), without incremental mode; a score under a',
  "sample's break threshold (`mutation/stryker.ci-*.config.mjs`) fails CI.",
  '',
  "Each part's result is kept in `mutation/results/<part>.json`: of each mutant, where it is, what it does and its status,",
  'and the text of its line; a mutant counts only where its line reads the same today (the others are counted as stale',
  'below, measured on code that has changed since). A mutant two parts measured (a function run as its module loads and',
  "by tests) is detected where either part's tests detect it: `npm test` runs both. The HTML reports are",
  '`reports/mutation/*.html` (not committed).',
  '',
  '`npm run mutation` measures what the results do not hold: of each part, the mutants StrykerJS makes today that its',
  'result lacks as the code reads today (new ones, those of lines that changed, and those an ignorer now keeps), on the',
  'lines they span (`--mutate`), merged into its result (`scripts/mutation-pending.js`); a part with none does not run,',
  "so a run after a change takes the minutes of the mutants it made. It trusts a kept status while the mutant's line",
  'reads the same: a test weakened since, or code that changed around an unchanged line, shows only in a whole run',
  '(`npm run mutation -- --whole`, the sum of the times below); `--survivors` measures again the mutants a result holds',
  'undetected, after tests were added to kill them.',
  '',
  `**Mutation score: ${score(all).toFixed(2)}%** (${count(all, DETECTED)} detected of ${count(all, [...DETECTED, ...UNDETECTED])}; ignored mutants do not count).`,
  '',
  `- Runs: ${minutes(measured.reduce((sum, part) => sum + secondsOf(part.run), 0))} in all, part by part:`,
  ...measured.map(
    ({ file, run }) =>
      `  - \`${file}\`: ${run ? `${run.when}, ${minutes(run.seconds)} at concurrency ${run.concurrency} on ${run.cores} cores${run.conditions ? ` (${run.conditions})` : ''}${sinceText(run.since)}` : 'no record of its run'}.`,
  ),
  ...unmeasured.map(({ file }) => `  - \`${file}\`: not measured (no result).`),
  `- Mutants: ${all.length} in ${rows.length} files: ${STATUSES.map((s) => `${count(all, [s])} ${s}`).join(', ')}; ${staleMutants} stale (their line has changed since their part ran; not counted).`,
  `- Ignored: ${staticIgnored.length} measured by no part, ${disabled.length} disabled in the code as equivalent (listed below). The code a module runs as it loads is the static parts', the rest the other parts'; a mutant is measured by neither where its part has no result, or where StrykerJS finds it reached outside any test (in a hook) though no code run at load calls its function: its file's part leaves it as static, and the static parts leave it as inside a function. By file: ${unmeasuredByFile}.`,
  '',
  '## The survivors of the review by hand',
  '',
  'A review by hand mutation (issue 21) found three mutants that every self-test let through, and one branch reached by one',
  'fault alone; each now has a fault of the reference server that only that branch catches, and the mutants StrykerJS',
  'makes of each line fare as listed:',
  '',
  ...HAND_REVIEW.map(
    ({ what, file, line, killedBy }) =>
      `- ${what}: ${killedBy} StrykerJS on \`${file}\` (\`${cell(line)}\`): ${handReviewStatus(file, line)}.`,
  ),
  '',
  ...(notMutated.length === 0
    ? []
    : [
        '## Not mutated in this run',
        '',
        `Files of \`npm run mutation\` that this document's reports do not cover: ${notMutated.map((f) => `\`${f}\``).join(', ')}.`,
        '',
      ]),
  ...(withoutMutants.length === 0
    ? []
    : [
        '## Files without a mutant',
        '',
        `Files of \`npm run mutation\` of which StrykerJS makes no mutant (types, re-exports, a table of numbers \`as const\`): ${withoutMutants.map((f) => `\`${f}\``).join(', ')}.`,
        '',
      ]),
  '## By file',
  '',
  '| file | mutants | killed | timeout | survived | no coverage | ignored | score |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows
    .sort((a, b) => a.file.localeCompare(b.file))
    .map(
      ({ file, mutants }) =>
        `| ${file} | ${mutants.length} | ${count(mutants, ['Killed'])} | ${count(mutants, ['Timeout'])} | ${count(mutants, ['Survived'])} | ${count(mutants, ['NoCoverage'])} | ${count(mutants, ['Ignored'])} | ${score(mutants).toFixed(1)}% |`,
    ),
  '',
  '## Surviving mutants',
  '',
  survivors.length === 0
    ? 'None.'
    : `Each is a branch no self-test proves yet: a fault (or a unit test) that kills it, or a \`// Stryker disable\` comment with the reason it is equivalent, removes it from this list. The reason each survives is kept in \`scripts/mutation-survivors.yaml\`; ${unexamined.length} of the ${survivors.length} have none yet.`,
  '',
  ...(survivors.length === 0
    ? []
    : [
        '| where | status | mutator | replacement | line | why it survives |',
        '| --- | --- | --- | --- | --- | --- |',
        ...survivors.map(
          ({ row, m }) =>
            `| ${where(row, m)} | ${m.status} | ${m.mutatorName} | \`${cell(m.replacement ?? '')}\` | \`${cell(lineOf(row, m))}\` | ${cell(reasonOf(row, m) ?? 'not examined yet')} |`,
        ),
      ]),
  '',
  '## Equivalent mutants (disabled in the code)',
  '',
  disabled.length === 0
    ? 'None.'
    : 'A mutant that cannot change any verdict, disabled by a `// Stryker disable next-line` comment that gives the reason (the argument: next section).',
  '',
  ...(disabled.length === 0
    ? []
    : [
        '| where | mutator | reason |',
        '| --- | --- | --- |',
        ...disabled.map(({ row, m }) => `| ${where(row, m)} | ${m.mutatorName} | ${cell(m.statusReason ?? '')} |`),
      ]),
  '',
  ...(await pragmaSection(root)),
]
writeFileSync(documentPath, lines.join('\n'))
console.log(
  `mutation score ${score(all).toFixed(2)}%, ${all.length} mutants, ${survivors.length} surviving (${unexamined.length} without a reason); written to ${documentPath}`,
)
for (const r of stale)
  console.log(`scripts/mutation-survivors.yaml: no survivor of ${r.file} takes the reason for "${r.line}"; remove it`)
