import type { Check } from './types.js'

export const headersChecks: readonly Check[] = []
