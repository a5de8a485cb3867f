/** The Idempotency-Key's length bounds (Idempotent writes, Limits: "8 to 128 safe characters"). */
export const KEY_BOUNDS = { min: 8, max: 128 } as const
