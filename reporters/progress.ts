import { levelLabel } from '../src/contract/requirements.js'
import type { CheckOutcome } from '../src/core/report.js'

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

const COLOURS = { red: 31, green: 32, dim: 2 } as const
export type Colour = keyof typeof COLOURS

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colourFor(output: ProgressOutput, env: NodeJS.ProcessEnv): (colour: Colour, text: string) => string {
  const enabled = output.isTTY === true && env.NO_COLOR === undefined
  return (colour, text) => (enabled ? `\x1b[${COLOURS[colour]}m${text}\x1b[0m` : text)
}

/**
 * Progress while the checks run. On a terminal: one status line rewritten in place (concern, checks done,
 * failures). Elsewhere (CI logs): one line per finished concern. A failed check gets a line of its own in both.
 */
export function createProgress(output: ProgressOutput, env: NodeJS.ProcessEnv, expected: number): Progress {
  const paint = colourFor(output, env)
  const live = output.isTTY === true
  let done = 0
  let failed = 0
  let concern: { name: string; done: number; failed: number } | undefined
  const status = () => `\r\x1b[K${paint('dim', `${concern?.name ?? ''} · ${done}/${expected} checks done · ${failed} failed`)}`
  const concernLine = () => concern && `${concern.name}: ${checksDone(concern.done)}${concern.failed > 0 ? `, ${concern.failed} failed` : ''}\n`

  return {
    onCheck(outcome) {
      if (!live && concern && concern.name !== outcome.concern) output.write(concernLine()!)
      if (concern?.name !== outcome.concern) concern = { name: outcome.concern, done: 0, failed: 0 }
      done++
      concern.done++
      if (outcome.status === 'failed') {
        failed++
        concern.failed++
        output.write(`${live ? '\r\x1b[K' : ''}${paint('red', 'failed')} ${outcome.id} [${outcome.requirement}, ${levelLabel(outcome)}]\n`)
      }
      if (live) output.write(status())
    },
    end() {
      if (live) output.write('\r\x1b[K')
      else if (concern) output.write(concernLine()!)
    },
  }
}

const checksDone = (n: number) => `${n} ${n === 1 ? 'check' : 'checks'} done`
