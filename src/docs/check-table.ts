import { exchangeRules } from '../checks/every-response.js'
import { relationRules } from '../checks/relations.js'
import { checksByConcern } from '../checks/index.js'
import { levelLabel, loadRequirements, requirementById, type Requirement } from '../contract/requirements.js'
import { tableCell } from './table-cell.js'

interface Row {
  id: string
  requirement: string
  title: string
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

function checkTable(rows: readonly Row[]): string {
  return table(
    ['check', 'requirement', 'level', 'what holds when it passes'],
    rows.map((row) => [
      `\`${row.id}\``,
      `\`${row.requirement}\``,
      levelLabel(requirementById(row.requirement)),
      tableCell(row.title),
    ]),
  )
}

/**
 * docs/checks.md's list of checks, rendered from the catalogue: every check and every-response rule with its
 * requirement, the requirements (specs/requirements.yaml unless given) a client cannot observe and why, and observable
 * ones no check cites.
 */
export function renderCheckTable(requirements: readonly Requirement[] = loadRequirements()): string {
  const checks = Object.values(checksByConcern).flat()
  const cited = new Set([...checks, ...exchangeRules, ...relationRules].map((c) => c.requirement))
  const unobservable = requirements.filter((r) => !r.observable)
  const uncovered = requirements.filter((r) => r.observable && !cited.has(r.id))
  const profiled = requirements.filter((r) => r.profile && cited.has(r.id))
  return [
    `${checks.length} checks, ${exchangeRules.length} every-response rules and ${relationRules.length} relations between responses cite ${cited.size} of the ${requirements.length} requirements of \`specs/requirements.yaml\`; ${profiled.length} of them are assessed only against a deployment profile (\`--profile\`) that states the key named below.`,
    '',
    '### Checks',
    '',
    checkTable(checks),
    '',
    '### Every-response rules',
    '',
    "Applied to every exchange of the run with one of the contract's operations, whichever check made it (a path that is no operation is left to the routing checks).",
    '',
    checkTable(exchangeRules),
    '',
    '### Relations between responses',
    '',
    "Judged over every response of a run, the last sweep's and a soak's included, each against those before it, and over each whole walk of a list by the last sweep or a soak (see above).",
    '',
    checkTable(relationRules),
    '',
    '### Requirements not assessed',
    '',
    'Without a deployment profile; those with a profile key are assessed when the profile states it.',
    '',
    table(
      ['requirement', 'level', 'rule', 'why not', 'profile key that assesses it'],
      unobservable.map((r) => [
        `\`${r.id}\``,
        r.level,
        tableCell(r.rule),
        tableCell(r.reason ?? ''),
        r.profile ? `\`${r.profile}\`` : '',
      ]),
    ),
    '',
    '### Observable requirements without a check',
    '',
    uncovered.length === 0
      ? 'None.'
      : table(
          ['requirement', 'level', 'rule'],
          uncovered.map((r) => [`\`${r.id}\``, levelLabel(r), tableCell(r.rule)]),
        ),
  ].join('\n')
}
