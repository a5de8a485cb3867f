import { flags } from '../cli/options.js'
import type { Flag } from '../cli/flags.js'
import { tableCell } from './table-cell.js'

const valueOf = (flag: Flag) =>
  flag.kind === 'flag'
    ? ''
    : flag.kind === 'int'
      ? ' N'
      : flag.kind === 'folder'
        ? ' DIR'
        : flag.kind === 'duration'
          ? ' D'
          : ' VALUE'

/**
 * docs/flags.md's table of the run's flags, from the flag table (the CLI's unless given): the same that parses argv,
 * the environment and the config file, and prints --help.
 */
export function renderFlagTable(table: readonly Flag[] = flags): string {
  const rows = table.map((flag) => {
    const meaning = flag.default === undefined ? flag.help : `${flag.help} (default \`${flag.default}\`)`
    return `| \`--${flag.name}${valueOf(flag)}\` | ${flag.env ? `\`${flag.env}\`${flag.envAliases?.length ? ` (or ${flag.envAliases.map((name) => `\`${name}\``).join(', ')})` : ''}` : ''} | ${tableCell(meaning)} |`
  })
  return [
    '| flag | environment | meaning |',
    '|---|---|---|',
    ...rows,
    '| `--help`, `-h` (also `ipts-conformance help`), `--version` | | |',
  ].join('\n')
}
