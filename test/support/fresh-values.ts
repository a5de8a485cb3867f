/**
 * A value never used before in this process: redaction remembers short texts with their redaction, and a graph kept
 * from one mutant's run to the next would answer from what an earlier run computed. The suffix is one no encoder
 * changes.
 */
let made = 0
export const fresh = (value: string) => `${value}${Date.now().toString(36)}${process.pid}${made++}`
