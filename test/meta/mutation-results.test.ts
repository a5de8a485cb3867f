import { describe, expect, test } from 'vitest'
import { resultOf, resultText, rowsOf, type PartResult } from '../../scripts/mutation-results.js'

const SOURCE = ['const a = 1', 'if (a > 0) run()', 'export {}'].join('\n')

const mutant = (line: number, column: number, mutatorName: string, replacement: string, status: string, end = 16) => ({
  location: { start: { line, column }, end: { line, column: end } },
  mutatorName,
  replacement,
  status,
})

/** A part's result as its run made it, from a report over the file `src/a.ts` as it read then. */
const partResult = (when: string, source: string, mutants: ReturnType<typeof mutant>[]): PartResult =>
  resultOf({ files: { 'src/a.ts': { source, mutants } } }, { when })

const statusesOf = (results: PartResult[], today: string | undefined) => {
  const { rows, stale } = rowsOf(results, (file) => (file === 'src/a.ts' ? today : undefined))
  return {
    statuses: rows.flatMap((row) =>
      row.mutants.map((m) => `${m.location.start.line}:${m.mutatorName}:${m.replacement}:${m.status}`),
    ),
    stale,
  }
}

describe("a part's result (mutation/results/)", () => {
  test('keeps each mutant, the text of its line, and the reason of an ignored one only', () => {
    const result = resultOf(
      {
        files: {
          'src/a.ts': {
            source: SOURCE,
            mutants: [
              { ...mutant(2, 5, 'EqualityOperator', 'a >= 0', 'Survived'), statusReason: 'not read' },
              { ...mutant(1, 11, 'NumericLiteral', '0', 'Ignored'), statusReason: 'equivalent: a is a flag' },
            ],
          },
        },
      },
      { when: '2026-11-26 17:00 UTC' },
    )
    expect(result).toEqual({
      run: { when: '2026-11-26 17:00 UTC' },
      files: {
        'src/a.ts': {
          lines: { 1: 'const a = 1', 2: 'if (a > 0) run()' },
          mutants: [
            {
              at: '1:11',
              end: '1:16',
              mutator: 'NumericLiteral',
              to: '0',
              status: 'Ignored',
              why: 'equivalent: a is a flag',
            },
            { at: '2:5', end: '2:16', mutator: 'EqualityOperator', to: 'a >= 0', status: 'Survived' },
          ],
        },
      },
    })
    expect(JSON.parse(resultText(result))).toEqual(result)
    expect(
      resultText(result)
        .split('\n')
        .filter((line) => line.includes('"mutator"')),
    ).toHaveLength(2)
  })

  test('of a mutant two parts ran, one that detected it counts, then the later run; one that ignored it hides nothing', () => {
    const at = (when: string, status: string) =>
      partResult(when, SOURCE, [mutant(2, 5, 'EqualityOperator', 'a >= 0', status)])
    const statusOf = (...results: PartResult[]) => statusesOf(results, SOURCE).statuses
    const killed = at('2026-11-25 10:00 UTC', 'Killed')
    const timedOut = at('2026-11-25 11:00 UTC', 'Timeout')
    const surviving = at('2026-11-26 10:00 UTC', 'Survived')
    const uncovered = at('2026-11-26 11:00 UTC', 'NoCoverage')
    const ignored = at('2026-11-27 10:00 UTC', 'Ignored')
    expect(statusOf(surviving, killed)).toEqual(['2:EqualityOperator:a >= 0:Killed'])
    expect(statusOf(killed, uncovered)).toEqual(['2:EqualityOperator:a >= 0:Killed'])
    expect(statusOf(killed, timedOut)).toEqual(['2:EqualityOperator:a >= 0:Timeout'])
    expect(statusOf(timedOut, killed)).toEqual(['2:EqualityOperator:a >= 0:Timeout'])
    expect(statusOf(surviving, uncovered)).toEqual(['2:EqualityOperator:a >= 0:NoCoverage'])
    expect(statusOf(ignored, surviving)).toEqual(['2:EqualityOperator:a >= 0:Survived'])
    expect(statusOf(ignored, killed)).toEqual(['2:EqualityOperator:a >= 0:Killed'])
    expect(statusOf(ignored)).toEqual(['2:EqualityOperator:a >= 0:Ignored'])
  })

  test('two mutants of one place differ by their mutator, their replacement or where they end', () => {
    const result = partResult('2026-11-26 10:00 UTC', SOURCE, [
      mutant(2, 5, 'EqualityOperator', 'a >= 0', 'Survived'),
      mutant(2, 5, 'EqualityOperator', 'a < 0', 'Killed'),
      mutant(2, 5, 'ConditionalExpression', 'true', 'Killed'),
      mutant(2, 5, 'ConditionalExpression', 'true', 'Survived', 9),
    ])
    expect(statusesOf([result], SOURCE).statuses).toEqual([
      '2:ConditionalExpression:true:Survived',
      '2:ConditionalExpression:true:Killed',
      '2:EqualityOperator:a < 0:Killed',
      '2:EqualityOperator:a >= 0:Survived',
    ])
  })

  test('a mutant whose line reads otherwise today, or whose file is gone, is stale and not counted', () => {
    const result = partResult('2026-11-26 10:00 UTC', SOURCE, [
      mutant(1, 11, 'NumericLiteral', '0', 'Killed'),
      mutant(2, 5, 'EqualityOperator', 'a >= 0', 'Survived'),
    ])
    const changed = SOURCE.replace('a > 0', 'a > 1')
    expect(statusesOf([result], changed)).toEqual({ statuses: ['1:NumericLiteral:0:Killed'], stale: 1 })
    const moved = `// a comment\n${SOURCE}`
    expect(statusesOf([result], moved)).toEqual({ statuses: [], stale: 2 })
    expect(statusesOf([result], undefined)).toEqual({ statuses: [], stale: 2 })
  })
})
