import type { Allowance } from './types.js'

/** Behaviour the contract permits; a server doing any of it passes the suite. */
export const allowances: readonly Allowance[] = []

export function allowanceByName(name: string): Allowance | undefined {
  return allowances.find((allowance) => allowance.name === name)
}
