// The types of what mutation/top-level-only.mjs gives StrykerJS and its self-test.
import type { Ignorer } from '@stryker-mutator/api/ignore'

export const strykerPlugins: readonly [{ readonly value: Ignorer }]
