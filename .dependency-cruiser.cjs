/**
 * The layers of ipts-conformance, lowest first; a module may import its own layer and those below, never one above.
 * `npm test` runs this (test/meta/layers.test.ts); `npx depcruise --config .dependency-cruiser.cjs src reporters
 * suites` shows it.
 *
 *   model     src/core, src/contract, src/profile
 *             settings, report model, errors, the contract's operations, schemas and requirements, the profile
 *   infra     src/http, src/generators, src/har
 *             the polite client, secrets, input generators, HAR reading and writing
 *   checks    src/checks
 *             one small function per requirement, and the every-response rules
 *   engine    src/engine
 *             runs a check, observes every exchange, decides outcomes, assembles the report
 *   adapters  src/runner, src/traffic, src/vitest, reporters
 *             the API, the proxy and check-har, npx vitest run, the report files
 *   cli       src/cli, src/docs, src/index.ts, suites, vitest.config.ts
 *             the front ends, and the README's generated tables
 *
 * The reference server (src/reference) is a fixture beside them: it may use the model and infra layers, and only the
 * adapters that start it (the API's embedded target, the CLI's `reference`) and the public index may import it.
 */
const LAYERS = [
  { name: 'model', path: '^src/(core|contract|profile)/' },
  { name: 'infra', path: '^src/(http|generators|har)/' },
  { name: 'checks', path: '^src/checks/' },
  { name: 'engine', path: '^src/engine/' },
  { name: 'adapters', path: '^(src/(runner|traffic|vitest)|reporters)/' },
  { name: 'cli', path: '^(src/(cli|docs)/|src/index\\.ts$|suites/|vitest\\.config\\.ts$)' },
]

const above = (index) => LAYERS.slice(index + 1).map((layer) => layer.path)

module.exports = {
  forbidden: [
    ...LAYERS.slice(0, -1).map((layer, index) => ({
      name: `${layer.name}-imports-no-layer-above`,
      comment: `${layer.name} may import only its own layer and those below it`,
      severity: 'error',
      from: { path: layer.path },
      to: { path: above(index) },
    })),
    {
      name: 'reference-is-a-fixture',
      comment:
        'only the adapters that start the reference server (the API, the CLI) and the public index import it; no check, engine or model code runs its faults',
      severity: 'error',
      from: { path: '^src/(core|contract|profile|http|generators|har|checks|engine|traffic|vitest)/|^reporters/' },
      to: { path: '^src/reference/' },
    },
    {
      name: 'reference-uses-only-model-and-infra',
      comment:
        'the reference server stands beside the suite: it uses the contract and the model, never checks, engine or adapters',
      severity: 'error',
      from: { path: '^src/reference/' },
      to: { path: '^(src/(checks|engine|runner|traffic|vitest|docs|cli)/|reporters/)' },
    },
    {
      name: 'faults-loaded-on-demand',
      comment:
        "the reference's faults and allowances are loaded only when a run names one (a dynamic import): a run against a deployment, or the plain reference, runs no fault's code",
      severity: 'error',
      from: { path: '^src/(runner|cli/(run|options|main))' },
      to: { path: '^src/reference/(named-behaviours|faults/|allowances/)', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'vitest-only-in-the-vitest-mode',
      comment:
        'vitest is an optional peer dependency: nothing the CLI (every subcommand) or the typed API reaches imports it, dynamic and type imports included',
      severity: 'error',
      from: { path: '^src/(index|cli/main)\\.ts$' },
      to: { path: '^(vitest(/|$)|node_modules/vitest/)', reachable: true },
    },
    {
      name: 'no-circular',
      comment: 'modules import one way',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
