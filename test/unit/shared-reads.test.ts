import { describe, expect, test } from 'vitest'
import { ERROR_CODES } from '../../src/core/errors.js'
import type { Exchange } from '../../src/http/exchange.js'
import { isAnswerToJudge, transientOnly } from '../../src/engine/server-errors.js'
import { SharedReads } from '../../src/engine/shared-reads.js'
import { exchangeOf, responseOf } from '../support/hand-made.js'

/** A vault read answered `status` (none: no response) after attempts answered `earlier`. */
const vaultRead = (status: number | undefined, earlier: number[] = []): Exchange => ({
  ...exchangeOf(status === undefined ? undefined : responseOf(status), { url: 'http://127.0.0.1:9/v1/vault?x=1' }),
  retries: earlier.map((attempt) => ({ status: attempt, waitedMs: 0 })),
})

/** A promise and the function that resolves it, to settle a read when the test says so. */
function pending<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((settle) => (resolve = settle))
  return { promise, resolve }
}

describe('why a read was not assessed', () => {
  test.each<[string, number | undefined, number[]]>([
    ['no response', undefined, []],
    ['an answer', 200, [502]],
    ['a 500, judged when it repeats', 500, [500]],
    ['a 501, no dependency', 501, []],
  ])('none for %s', (_, status, earlier) => expect(transientOnly(vaultRead(status, earlier))).toBeUndefined())

  const NEEDED = 'a transient failure of a dependency; what this check needed of that read was not observed'
  test.each<[number, number[], string]>([
    [502, [], '502 to 1 attempt'],
    [504, [504], '504 to 2 attempts'],
    [503, [502, 504], '503 to 3 attempts (502, 504, 503)'],
  ])('%i after %j: the status, the attempts and each status when they differ', (status, earlier, told) =>
    expect(transientOnly(vaultRead(status, earlier))).toBe(
      `not assessed: the target answered ${told} of GET /v1/vault, ${NEEDED}`,
    ),
  )
})

describe('an answer the operation rules judge', () => {
  test.each<[number, boolean, boolean]>([
    [200, false, true],
    [500, false, true],
    [501, false, true],
    [502, false, false],
    [503, false, false],
    [504, false, false],
    [200, true, false],
    [500, true, false],
    [504, true, false],
  ])('%i, sent again by the client: %s -> %s', (status, superseded, judged) =>
    expect(isAnswerToJudge({ status }, superseded)).toBe(judged),
  )
})

describe('the reads the checks of a run share', () => {
  test('one request for every asker of a key, as the first asker sent it; another key is a read of its own', async () => {
    const reads = new SharedReads()
    const sent: string[] = []
    const send = (key: string) => async () => {
      sent.push(key)
      return vaultRead(200)
    }
    const [first, second] = await Promise.all([
      reads.read('vault', 'check/a', send('vault')),
      reads.read('vault', 'check/b', send('vault')),
    ])
    const config = await reads.read('config', 'check/b', send('config'))
    expect(second).toBe(first)
    expect(config).not.toBe(first)
    expect(sent).toEqual(['vault', 'config'])
    expect(reads.exchanges).toEqual([
      { exchange: first, sentBy: 'check/a' },
      { exchange: config, sentBy: 'check/b' },
    ])
  })

  test('a read with no response is kept and shared; a transient one is sent again for the next asker', async () => {
    const reads = new SharedReads()
    const answers = [vaultRead(undefined), vaultRead(503, [503]), vaultRead(200)]
    let sent = 0
    const send = async () => answers[sent++]!
    expect(await reads.read('unanswered', 'a', send)).toBe(answers[0])
    expect(await reads.read('unanswered', 'b', send)).toBe(answers[0])
    expect(await reads.read('vault', 'a', send)).toBe(answers[1])
    expect(await reads.read('vault', 'b', send), 'the 503s were not kept').toBe(answers[2])
    expect(await reads.read('vault', 'c', send), 'the answer is kept').toBe(answers[2])
    expect(sent).toBe(3)
    expect(reads.exchanges.map(({ sentBy }) => sentBy)).toEqual(['a', 'a', 'b'])
  })

  test('settle once every read has its answer or its error', async () => {
    const reads = new SharedReads()
    const answer = pending<Exchange>()
    void reads.read('vault', 'a', () => answer.promise)
    reads.read('config', 'a', () => Promise.reject(new Error('refused'))).catch(() => undefined)
    let settled = false
    const settling = reads.settled().then(() => (settled = true))
    await new Promise((wait) => setTimeout(wait, 5))
    expect(settled, 'the vault read is still on its way').toBe(false)
    const exchange = vaultRead(200)
    answer.resolve(exchange)
    await settling
    expect(reads.exchanges[0]!.exchange).toBe(exchange)
  })

  test('a result is computed once per key; again after a computing that met a read not assessed, else not', async () => {
    const reads = new SharedReads()
    const computed: string[] = []
    const computing = (key: string, outcome: () => unknown) => () => {
      computed.push(key)
      return Promise.resolve().then(outcome)
    }
    const notAssessed = Object.assign(new Error('not assessed'), { code: ERROR_CODES.checkNotRun })
    const otherwise = Object.assign(new Error('a defect'), { code: 'OTHER' })

    const walks = [
      reads.once(
        'walk',
        computing('walk', () => 1),
      ),
      reads.once(
        'walk',
        computing('walk', () => 2),
      ),
    ]
    expect(await Promise.all(walks)).toEqual([1, 1])
    expect(
      await reads.once(
        'other walk',
        computing('other walk', () => 3),
      ),
    ).toBe(3)

    await expect(
      reads.once(
        'unassessed',
        computing('unassessed', () => Promise.reject(notAssessed)),
      ),
    ).rejects.toBe(notAssessed)
    expect(
      await reads.once(
        'unassessed',
        computing('unassessed', () => 4),
      ),
      'computed again',
    ).toBe(4)

    await expect(
      reads.once(
        'broken',
        computing('broken', () => Promise.reject(otherwise)),
      ),
    ).rejects.toBe(otherwise)
    await expect(
      reads.once(
        'broken',
        computing('broken', () => 5),
      ),
      'the failure is kept',
    ).rejects.toBe(otherwise)

    expect(computed).toEqual(['walk', 'other walk', 'unassessed', 'unassessed', 'broken'])
  })
})
