import type { RequirementId } from '../contract/catalogue-ids.js'
import { operation, type Operation, type OperationId } from '../contract/operations.js'
import { ruledViolations, type RuledViolation } from '../contract/violation-rules.js'
import { missingInputReasons, missingNeed } from '../checks/needs.js'
import type { Exchange } from '../http/exchange.js'
import { excerpt, secretsOf, type Secret } from '../http/secrets.js'
import type { RunSettings } from '../core/settings.js'
import type { RecordedJudgement } from './exchange-judge.js'
import type { CallOptions, Check, CheckContext, Need } from './types.js'
import { statusOf } from './operation-calls.js'

/**
 * One request a check sends: an operation with the configured inputs, or the intent operation with the second intent.
 */
export interface Subject {
  operation: Operation
  label: string
  needs: Need[]
  options?: CallOptions
}

export interface Answer {
  subject: Subject
  exchange: Exchange
}

export function needsOf(op: Operation): Need[] {
  const needs: Need[] = ['apiKey']
  if (op.template.includes('{hash}')) needs.push('intent')
  if (op.template.includes('{address}')) needs.push('trader')
  return needs
}

/** `GET /v1/vault, /v1/markets and /v1/config`, for titles. */
export function pathsOf(ids: readonly OperationId[]): string {
  const paths = ids.map((id) => operation(id).template)
  return `GET ${paths.length > 1 ? `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}` : paths[0]}`
}

function subjectsOf(settings: RunSettings, op: Operation): Subject[] {
  const subjects: Subject[] = [{ operation: op, label: `GET ${op.template}`, needs: needsOf(op) }]
  const second = settings.secondIntent
  if (op.id === 'getIntentStatus' && second) {
    subjects[0]!.label += ' (the intent)'
    const options = { params: { hash: second.hash }, query: { receipt: second.receipt } }
    subjects.push({
      operation: op,
      label: `GET ${op.template} (the second intent)`,
      needs: [...needsOf(op), 'secondIntent'],
      options,
    })
  }
  return subjects
}

function describeAnswer(exchange: Exchange): string {
  const { response } = exchange
  if (!response) return statusOf(exchange)
  return response.json === undefined
    ? `status ${response.status}, and the body is ${response.jsonError}`
    : `status ${response.status}`
}

export function isSuccessBody(exchange: Exchange): boolean {
  return exchange.response?.status === 200 && exchange.response.json !== undefined
}

/**
 * Sends each operation whose inputs were given (the intent one once per configured intent); skips the check when none
 * was.
 */
export async function answersOf(ctx: CheckContext, ids: readonly OperationId[]): Promise<Answer[]> {
  const subjects = ids.flatMap((id) => subjectsOf(ctx.settings, operation(id)))
  const callable = subjects.filter((subject) => !missingNeed(ctx.settings, subject.needs))
  if (callable.length === 0)
    ctx.skip(subjects.map((s) => `${s.label}: ${missingInputReasons[missingNeed(ctx.settings, s.needs)!]}`).join('; '))
  return Promise.all(
    callable.map(async (subject) => ({
      subject,
      exchange: await ctx.call(subject.operation.id, { ...subject.options, shared: true }),
    })),
  )
}

/** The 200 JSON bodies of the operations; skips the check when none answered one (EP-SUCCESS-200 reports that). */
async function successAnswers(ctx: CheckContext, ids: readonly OperationId[]): Promise<Answer[]> {
  const answers = await answersOf(ctx, ids)
  const successes = answers.filter((answer) => isSuccessBody(answer.exchange))
  if (successes.length === 0) {
    ctx.skip(
      answers
        .map((a) => `${a.subject.label} answered ${describeAnswer(a.exchange)}, so there is no success body to check`)
        .join('; '),
    )
  }
  return successes
}

export function failureOf(answer: Answer, problem: string): string {
  return `${answer.subject.label} answered ${describeAnswer(answer.exchange)}: ${problem}`
}

/** How much of an offending value a failure message quotes. */
const QUOTED_VALUE_CHARS = 80

function describeViolations(violations: RuledViolation[], secrets: readonly Secret[]): string {
  const [first] = violations
  // ajv reports (verbose) the instance each violation is about, and a JSON body holds no undefined: there is always a
  // value to quote.
  const value = `, got ${excerpt(JSON.stringify(first!.value), QUOTED_VALUE_CHARS, secrets)}`
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : ''
  return `${first!.instancePath || 'the body'} ${first!.message} (${first!.keyword})${value}${more}`
}

export interface BodyRule {
  id: string
  requirement: RequirementId
  title: string
  operations: readonly OperationId[]
}

/** A check that reads the operations' success bodies and fails on the schema violations that break its requirement. */
export function bodyRuleCheck(rule: BodyRule): Check {
  const needs = rule.operations.length === 1 ? needsOf(operation(rule.operations[0]!)) : (['apiKey'] as Need[])
  const recorded: RecordedJudgement = {
    notApplicable: `no exchange was a 200 with a JSON body from ${pathsOf(rule.operations)}`,
    applies: (_, exchange) => rule.operations.includes(exchange.operation as OperationId) && isSuccessBody(exchange),
    violation(response, exchange, settings) {
      const violations = ruledViolations(operation(exchange.operation as OperationId), response.json).filter(
        (v) => v.requirement === rule.requirement,
      )
      return violations.length > 0
        ? { message: describeViolations(violations, secretsOf(settings)), violations }
        : undefined
    },
  }
  return {
    id: rule.id,
    requirement: rule.requirement,
    title: rule.title,
    needs,
    recorded,
    async run(ctx) {
      for (const answer of await successAnswers(ctx, rule.operations)) {
        const { response } = answer.exchange
        const finding = recorded.violation(response!, answer.exchange, ctx.settings)
        if (typeof finding === 'object')
          ctx.fail(`${answer.subject.label}: ${finding.message}`, {
            exchange: answer.exchange,
            violations: finding.violations,
          })
      }
    },
  }
}
