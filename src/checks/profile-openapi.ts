import type { Check, CheckContext } from './types.js'

/**
 * The published description was fetched and judged before the run (src/profile/judge-description.ts); these checks
 * report it.
 */
const published = (ctx: CheckContext) => ctx.settings.profile!.openapi!

export const profileOpenApiChecks: readonly Check[] = [
  {
    id: 'profile/openapi-document',
    requirement: 'VER-OPENAPI',
    title:
      "the profile's published description is a valid OpenAPI 3.1.0 document of interface version 1.0.0 with the six operations at their paths",
    profile: 'openapi',
    async run(ctx) {
      const [problem, ...more] = published(ctx).findings.document
      if (problem) ctx.fail(more.length > 0 ? `${problem} (and ${more.length} more: ${more.join('; ')})` : problem)
    },
  },
  {
    id: 'profile/openapi-compatible',
    requirement: 'VER-OPENAPI',
    title:
      "the profile's published description accepts the success bodies the contract accepts and rejects those it forbids",
    profile: 'openapi',
    async run(ctx) {
      const { findings } = published(ctx)
      const [problem, ...more] = findings.compatibility
      if (problem)
        ctx.fail(
          `${problem}${more.length > 0 ? ` (and ${more.length} more disagreements)` : ''}; judged on ${findings.corpus.accepted} bodies the contract accepts and ${findings.corpus.forbidden} it forbids`,
        )
    },
  },
]
