import { subcommands } from '../cli/main.js'

/** Each subcommand's --help but the run's (whose flags are the flag table), as docs/flags.md shows them. */
export async function renderSubcommandHelp(): Promise<string> {
  const sections = await Promise.all(
    subcommands
      .slice(1)
      .map(async (subcommand) =>
        [`### \`ipts-conformance ${subcommand.name}\``, '', '```text', (await subcommand.load()).help(), '```'].join(
          '\n',
        ),
      ),
  )
  return sections.join('\n\n')
}
