import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { parse } from 'yaml'

/**
 * Runs a GitHub Actions job of a workflow file on this machine, as a runner would, for the self-test of
 * examples/conformance.yml: each `run` step in bash (GitHub's `bash -e {0}` with pipefail) in a fresh workspace,
 * with the workflow's, job's and step's `env` and `$GITHUB_PATH`, `$GITHUB_STEP_SUMMARY`, `$RUNNER_TEMP` as the
 * runner sets them. The few actions the example uses are played by their effect on files (artefacts are folders of
 * `artefacts`); any other action is an error, so that a step added to the example cannot go untested.
 */

interface Step {
  name?: string
  uses?: string
  run?: string
  env?: Record<string, string>
  with?: Record<string, string>
  'continue-on-error'?: boolean
}

interface Job {
  env?: Record<string, string>
  strategy?: { matrix?: Record<string, unknown[]> }
  steps: Step[]
}

export interface Workflow {
  env?: Record<string, string>
  jobs: Record<string, Job>
}

export const readWorkflow = (path: string): Workflow => parse(readFileSync(path, 'utf8')) as Workflow

/**
 * What `${{ context.name }}` stands for: matrix, vars and secrets; an unset one leaves its variable out (not empty).
 */
export type Contexts = Record<string, Record<string, string | undefined>>

export interface JobRun {
  /** Each run step's name and exit code, in order. */
  steps: { name: string; code: number | null; output: string }[]
  workspace: string
  runnerTemp: string
  stepSummary: string
}

const EXPRESSION = /\$\{\{\s*(\w+)\.([\w-]+)\s*\}\}/g

/** A value with its expressions filled in; undefined when it is one expression whose value is not set. */
function evaluate(value: unknown, contexts: Contexts): string | undefined {
  const text = String(value)
  const whole = /^\$\{\{\s*(\w+)\.([\w-]+)\s*\}\}$/.exec(text.trim())
  if (whole) return contexts[whole[1]!]?.[whole[2]!]
  return text.replace(EXPRESSION, (_, context: string, name: string) => contexts[context]?.[name] ?? '')
}

function evaluateAll(map: Record<string, unknown> | undefined, contexts: Contexts): Record<string, string> {
  const entries = Object.entries(map ?? {}).map(([key, value]) => [key, evaluate(value, contexts)] as const)
  return Object.fromEntries(entries.filter((entry): entry is readonly [string, string] => entry[1] !== undefined))
}

const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)

/** The artefacts (a folder per name) of this workflow run, and of the one before it. */
export interface Artefacts {
  current: string
  previous: string
}

/**
 * Runs one job of `workflow` with `contexts`; `env` is the runner's own environment (PATH, npm's settings) and
 * `overrides` replaces workflow-level variables (the install source, pointed at a local tarball).
 */
export function runJob(
  workflow: Workflow,
  jobName: string,
  contexts: Contexts,
  artefacts: Artefacts,
  env: NodeJS.ProcessEnv,
  overrides: Record<string, string> = {},
): JobRun {
  const job = workflow.jobs[jobName]!
  const workspace = mkdtempSync(join(tmpdir(), 'ipts-workspace-'))
  const runnerTemp = mkdtempSync(join(tmpdir(), 'ipts-runner-temp-'))
  const githubPath = join(runnerTemp, 'github-path')
  const stepSummary = join(runnerTemp, 'step-summary.md')
  writeFileSync(githubPath, '')
  writeFileSync(stepSummary, '')
  const steps: JobRun['steps'] = []
  for (const step of job.steps) {
    const inputs = evaluateAll(step.with, contexts)
    if (step.uses) {
      playAction(step.uses, inputs, workspace, artefacts)
      continue
    }
    const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse()
    const stepEnv = {
      ...env,
      ...evaluateAll(workflow.env, contexts),
      ...overrides,
      ...evaluateAll(job.env, contexts),
      ...evaluateAll(step.env, contexts),
      PATH: [...added, env.PATH].join(delimiter),
      GITHUB_WORKSPACE: workspace,
      GITHUB_PATH: githubPath,
      GITHUB_STEP_SUMMARY: stepSummary,
      RUNNER_TEMP: runnerTemp,
    }
    const script = join(runnerTemp, `step-${steps.length}.sh`)
    writeFileSync(script, step.run!)
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace,
      env: stepEnv,
      encoding: 'utf8',
    })
    steps.push({ name: step.name ?? step.run!, code: result.status, output: `${result.stdout}${result.stderr}` })
    if (result.status !== 0 && !step['continue-on-error']) break
  }
  return { steps, workspace, runnerTemp, stepSummary }
}

/** The effect on files of each action the example uses. */
function playAction(uses: string, inputs: Record<string, string>, workspace: string, artefacts: Artefacts): void {
  const action = uses.replace(/@.*$/, '')
  switch (action) {
    case 'actions/checkout': // the user's own repository: nothing of it is needed here
    case 'actions/setup-node': // this machine's node runs the steps
      return
    case 'actions/upload-artifact':
      cpSync(join(workspace, inputs.path!), join(artefacts.current, inputs.name!), { recursive: true })
      return
    case 'dawidd6/action-download-artifact': // the previous workflow run's artefact of that name, if any
      if (existsSync(join(artefacts.previous, inputs.name!)))
        cpSync(join(artefacts.previous, inputs.name!), join(workspace, inputs.path!), { recursive: true })
      return
    case 'actions/download-artifact': // this run's artefacts matching the pattern, each in a folder of its name
      mkdirSync(join(workspace, inputs.path!), { recursive: true })
      for (const name of readdirSync(artefacts.current).filter((name) => globToRegExp(inputs.pattern!).test(name))) {
        cpSync(join(artefacts.current, name), join(workspace, inputs.path!, name), { recursive: true })
      }
      return
    default:
      throw new Error(`the workflow uses ${uses}, which this emulation does not play`)
  }
}
