import { profileTemplate } from '../cli/profile-template.js'
import { renderCheckTable } from './check-table.js'
import { renderFlagTable } from './flag-table.js'
import { renderSubcommandHelp } from './subcommand-help.js'

/** The documents with sections generated from the code (npm run docs), each section by name with what renders it. */
export const generatedDocuments: readonly { path: string; sections: Record<string, () => string | Promise<string>> }[] =
  [
    { path: 'docs/flags.md', sections: { flags: renderFlagTable, subcommands: renderSubcommandHelp } },
    { path: 'docs/checks.md', sections: { checks: renderCheckTable } },
    {
      path: 'docs/profile.md',
      sections: { template: () => ['```yaml', profileTemplate().trimEnd(), '```'].join('\n') },
    },
  ]
