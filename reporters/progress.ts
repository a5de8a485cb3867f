import { levelLabel } from '../src/contract/requirements.js'
import type { CheckOutcome } from '../src/core/report.js'
import type { RoundProgress } from '../src/engine/resample.js'

/** Where progress goes: a writable stream, and whether it is a terminal. */
export interface ProgressOutput {
  write(text: string): unknown
  isTTY?: boolean
}

export interface Progress {
  onCheck(outcome: CheckOutcome): void
  /** Closes the progress display before the summary is printed. */
  end(): void
}

const COLOURS = { red: 31, green: 32, dim: 2, yellow: 33 } as const
export type Colour = keyof typeof COLOURS

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colourFor(output: ProgressOutput, env: NodeJS.ProcessEnv): (colour: Colour, text: string) => string {
  const enabled = output.isTTY === true && env.NO_COLOR === undefined
  return (colour, text) => (enabled ? `\x1b[${COLOURS[colour]}m${text}\x1b[0m` : text)
}

/**
 * Progress while the checks run. On a terminal: one status line rewritten in place (concern, checks done of all,
 * failures). Elsewhere (CI logs): one line per concern once all its checks are done, with the running total, however
 * the concerns' checks interleave. A failed check gets a line of its own in both.
 */
export function createProgress(
  output: ProgressOutput,
  env: NodeJS.ProcessEnv,
  checksPerConcern: Readonly<Record<string, number>>,
): Progress {
  const paint = colourFor(output, env)
  const live = output.isTTY === true
  const expected = Object.values(checksPerConcern).reduce((sum, n) => sum + n, 0)
  const perConcern = new Map<string, { done: number; failed: number }>()
  let done = 0
  let failed = 0
  let latest = ''
  const status = () => `\r\x1b[K${paint('dim', `${latest} · ${done}/${expected} checks done · ${failed} failed`)}`

  return {
    onCheck(outcome) {
      const concern = perConcern.get(outcome.concern) ?? { done: 0, failed: 0 }
      perConcern.set(outcome.concern, concern)
      latest = outcome.concern
      done++
      concern.done++
      if (outcome.status === 'failed') {
        failed++
        concern.failed++
        output.write(
          `${live ? '\r\x1b[K' : ''}${paint('red', 'failed')} ${outcome.id} [${outcome.requirement}, ${levelLabel(outcome)}]\n`,
        )
      }
      if (live) output.write(status())
      else if (concern.done === checksPerConcern[outcome.concern]) {
        output.write(
          `${outcome.concern}: ${checksDone(concern.done)}${concern.failed > 0 ? `, ${concern.failed} failed` : ''} (${done} of ${expected} in all)\n`,
        )
      }
    },
    end() {
      if (live) output.write('\r\x1b[K')
    },
  }
}

const checksDone = (n: number) => `${n} ${n === 1 ? 'check' : 'checks'} done`

/** A soak's line after each round: the round, the time spent of its duration, requests, and the findings so far. */
export function soakProgressLine({
  round,
  elapsedMs,
  durationMs,
  requests,
  quotaRefusals,
  findings,
}: RoundProgress): string {
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`
  const waited = quotaRefusals > 0 ? `, ${quotaRefusals} × 429 waited out` : ''
  const found = findings === 1 ? '1 rule with findings' : `${findings} rules with findings`
  return `soak: round ${round} done, ${seconds(elapsedMs)} of ${seconds(durationMs ?? elapsedMs)}, ${requests} requests${waited}, ${found} so far`
}
