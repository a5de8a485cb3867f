import { beforeAll, describe, expect, test } from 'vitest'
import { specPath } from '../../src/core/package-root.js'
import type { Exchange } from '../../src/http/exchange.js'
import { standIn } from '../../src/http/listed-material.js'
import { loadProfile } from '../../src/profile/load.js'
import type { Profile } from '../../src/profile/profile.js'
import { REFERENCE_PROFILE_FILE } from '../../src/runner/profile-of-run.js'
import { TrafficJudgement } from '../../src/traffic/judgement.js'
import { SECRETS_REMEMBERED } from '../../src/traffic/learned-secrets.js'
import { exchangeOf, responseOf, type Sent } from '../support/hand-made.js'

/**
 * TrafficJudgement on exchanges made by hand, as check-har and the proxy show them: what it counts per operation, the
 * writes it holds to IDEM-SAME-BODY, the findings set aside as stand-ins, the channels it judges, and the secrets it
 * redacts from what it kept before forgetting them.
 */

const TARGET = 'http://127.0.0.1:9'
const MARKETS = `${TARGET}/v1/markets`
const JSON_TYPE = { 'content-type': 'application/json' }
const judgement = (profile?: Profile) => new TrafficJudgement('proxy', TARGET, profile)
const markets = (status = 200) => exchangeOf(responseOf(status, JSON_TYPE, { items: [] }))
const unaddressed = (sent: Sent): Sent => ({ ...sent, operation: undefined })

let profile: Profile
beforeAll(async () => {
  profile = await loadProfile({ file: specPath(REFERENCE_PROFILE_FILE) })
})

describe('TrafficJudgement: the responses seen per operation', () => {
  test('a judged response counts as judged; one without a response or without its body is seen, not judged', () => {
    const j = judgement()
    j.judge(markets(200))
    j.judge(exchangeOf(undefined))
    j.judge(markets(503), false)
    j.judge(exchangeOf(undefined, unaddressed({ url: `${TARGET}/v1/nowhere` })))
    j.judge(exchangeOf(undefined, unaddressed({ url: `${TARGET}/health` })))
    j.upstreamFailed({ ...exchangeOf(undefined), error: { code: 'ECONNREFUSED', message: 'refused' } })
    j.upstreamFailed({
      ...exchangeOf(undefined, unaddressed({ url: `${TARGET}/v1/nowhere` })),
      error: { code: 'ECONNREFUSED', message: 'refused' },
    })
    expect(j.findings().responses).toEqual({
      listMarkets: { statuses: { '200': 1, '503': 1, 'no response': 2 }, judged: 1 },
    })
  })

  test('a request that got no response is counted so, whatever error was recorded with it', () => {
    const j = judgement()
    j.judge({ ...exchangeOf(undefined), error: { code: 'NO_RESPONSE', message: 'no response was recorded' } }, false)
    expect(j.findings().traffic).toMatchObject({ exchanges: 1, withoutResponse: 1, judged: 0, withoutBody: 0 })
  })

  test('judge and upstreamFailed return the exchange with the operation it addresses, none outside the contract', () => {
    const j = judgement()
    expect(j.judge(exchangeOf(responseOf(200), unaddressed({}))).operation).toBe('listMarkets')
    const elsewhere = exchangeOf(responseOf(200), unaddressed({ url: `${TARGET}/v1/nowhere` }))
    expect(j.judge(elsewhere), 'the exchange itself').toBe(elsewhere)
    const failed = j.upstreamFailed({
      ...exchangeOf(undefined, unaddressed({ url: `${TARGET}/v1/vault` })),
      error: { code: 'ECONNREFUSED', message: 'refused' },
    })
    expect(failed.operation).toBe('getVault')
    const outside = { ...exchangeOf(undefined, unaddressed({ url: `${TARGET}/x` })), error: undefined }
    expect(j.upstreamFailed(outside), 'the exchange itself').toBe(outside)
  })

  test('the target is the one given, never embedded; no breach is no clientRuleBreaches member', () => {
    const j = judgement()
    j.judge(markets())
    const findings = j.findings()
    expect(findings.target).toEqual({ baseUrl: TARGET, embedded: false })
    expect(findings.traffic).not.toHaveProperty('clientRuleBreaches')
    expect(findings.profile).toBeUndefined()
  })
})

describe("TrafficJudgement: the profile's writes and IDEM-SAME-BODY", () => {
  const write = (key: string, body: string, url = `${TARGET}/v1/intents`, method = 'POST'): Exchange => ({
    ...exchangeOf(responseOf(201, JSON_TYPE, { data: {} }), {
      operation: undefined,
      method,
      url,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
    }),
    request: {
      method,
      url,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      body,
    },
  })

  test('a key sent again with another body breaks it, named by the method, the path and the exchange', () => {
    const j = judgement(profile)
    j.judge(write('key-1', '{"a":1}'))
    j.judge(markets())
    j.judge(write('key-1', '{"a":2}', `${TARGET}/v1/intents?x=1`))
    expect(j.findings().profile).toBe(profile)
    expect(j.findings().traffic?.clientRuleBreaches).toEqual([
      {
        requirement: 'IDEM-SAME-BODY',
        message: expect.stringMatching(/^submitIntent: POST \/v1\/intents \(exchange 3\) sent Idempotency-Key "key-1"/),
      },
    ])
  })

  test.each(['PUT', 'PATCH', 'DELETE'] as const)(
    'a write the profile sends with %s is held to it as a POST is',
    (method) => {
      const submitIntent = profile.values.writes!.operations.submitIntent!
      const j = judgement({
        ...profile,
        values: { ...profile.values, writes: { operations: { submitIntent: { ...submitIntent, method } } } },
      })
      j.judge(write('key-m', '{"a":1}', `${TARGET}/v1/intents`, method))
      j.judge(write('key-m', '{"a":2}', `${TARGET}/v1/intents`, method))
      expect(j.findings().traffic?.clientRuleBreaches?.map((breach) => breach.message)).toEqual([
        expect.stringMatching(
          new RegExp(`^submitIntent: ${method} /v1/intents \\(exchange 2\\) sent Idempotency-Key "key-m"`),
        ),
      ])
    },
  )

  test('a GET of an operation and a write outside the profile are not held to it', () => {
    const j = judgement(profile)
    j.judge(write('key-g', '{"a":1}', MARKETS, 'GET'))
    j.judge(write('key-g', '{"a":2}', MARKETS, 'GET'))
    j.judge(write('key-o', '{"a":1}', `${TARGET}/v1/elsewhere`))
    j.judge(write('key-o', '{"a":2}', `${TARGET}/v1/elsewhere`))
    expect(j.findings().traffic).not.toHaveProperty('clientRuleBreaches')
  })

  test("a rule the profile states judges with the profile's values", () => {
    const error = exchangeOf(responseOf(400, JSON_TYPE, { error: 'bad', code: 'no-such-code-anywhere' }))
    const outcome = (j: TrafficJudgement) =>
      j.findings().checks.find((check) => check.id === 'every-response/error-code-listed')
    const withProfile = judgement(profile)
    withProfile.judge(error)
    expect(outcome(withProfile)?.status).toBe('failed')
    const without = judgement()
    without.judge(error)
    expect(outcome(without)?.status).not.toBe('failed')
  })
})

describe('TrafficJudgement: findings about values recorded as stand-ins', () => {
  const withStandIn = (requestId: string) =>
    exchangeOf(
      {
        ...responseOf(200, { ...JSON_TYPE, 'x-request-id': standIn('header', requestId) }, { items: [] }),
        standIns: true,
      },
      { headers: { accept: 'application/json', 'x-request-id': 'abcdefgh12' } },
    )
  const reasonOf = (j: TrafficJudgement, id: string) => j.findings().checks.find((check) => check.id === id)

  test('are set aside per rule and counted; a rule that judged nothing else is not assessed, saying how many', () => {
    const j = judgement()
    j.judge(withStandIn('abc'))
    expect(j.findings().traffic?.standIns).toEqual({
      responses: 1,
      setAside: { 'every-response/request-id-format': 1, 'request-ids/valid-echoed': 1 },
    })
    expect(reasonOf(j, 'every-response/request-id-format')).toMatchObject({
      status: 'skipped',
      reason:
        'not assessed: what it needs was recorded as a stand-in in one response (the recording kept response material by allowlist; record with --raw-record)',
    })
    j.judge(withStandIn('def'))
    expect(j.findings().traffic?.standIns?.responses).toBe(2)
    expect(j.findings().traffic?.standIns?.setAside['every-response/request-id-format']).toBe(2)
    expect(reasonOf(j, 'every-response/request-id-format')?.reason).toMatch(
      /^not assessed: what it needs was recorded as a stand-in in 2 responses \(/,
    )
  })

  test('a rule that judged a real value keeps its own outcome', () => {
    const j = judgement()
    j.judge(withStandIn('abc'))
    j.judge(
      exchangeOf(responseOf(200, { ...JSON_TYPE, 'x-request-id': 'abcdefgh12' }, { items: [] }), {
        headers: { accept: 'application/json', 'x-request-id': 'abcdefgh12' },
      }),
    )
    const outcome = reasonOf(j, 'every-response/request-id-format')
    expect(outcome?.status).toBe('passed')
    expect(outcome?.reason ?? '').not.toMatch(/stand-in/)
  })
})

describe('TrafficJudgement: WebSocket channels', () => {
  const channel = (url: string, headers: Record<string, string> = {}): Exchange => ({
    ...exchangeOf(responseOf(101, { upgrade: 'websocket' }), unaddressed({ url, headers })),
    webSocketMessages: [
      { type: 'send', time: 1, opcode: 1, data: 'hi' },
      { type: 'receive', time: 2, opcode: 1, data: 'there' },
    ],
  })

  test('each is counted with its messages; a receipt in its URL is a breach of RCPT-HANDLING, a key is not', () => {
    const j = judgement()
    j.channel(channel(`${TARGET}/v1/realtime?topic=a`))
    j.channel(channel(`${TARGET}/v1/realtime?key=k-0123456789`, { 'x-api-key': 'k-0123456789' }))
    j.judge(channel(`${TARGET}/v1/realtime?receipt=rcpt_0123456789`))
    const { traffic } = j.findings()
    expect(traffic?.channels).toEqual({ opened: 3, messages: 6 })
    expect(traffic?.clientRuleBreaches).toEqual([
      {
        requirement: 'RCPT-HANDLING',
        message: `GET ${TARGET}/v1/realtime?receipt=$IPTS_INTENT_RECEIPT (WebSocket channel 3): the upgrade's URL carries a receipt, which is "not placed in a public URL" (a URL is kept by proxies, logs and histories)`,
      },
    ])
  })

  test("a write's receipt the traffic carried, in a channel's URL under any name, is a breach too", () => {
    const j = judgement(profile)
    const url = `${TARGET}/v1/intents`
    const answer = responseOf(201, JSON_TYPE, { data: { receipt: 'wrcpt_0123456789' } })
    j.judge(exchangeOf(answer, { operation: undefined, method: 'POST', url }))
    j.channel(channel(`${TARGET}/v1/realtime?intent=wrcpt_0123456789`))
    expect(j.findings().traffic?.clientRuleBreaches).toEqual([
      {
        requirement: 'RCPT-HANDLING',
        message: expect.stringMatching(/^GET \S+\/v1\/realtime\?intent=\$IPTS_WRITE_RECEIPT \(WebSocket channel 1\): /),
      },
    ])
  })

  test("the second receipt learned ($IPTS_INTENT_RECEIPT_2) in a channel's URL is a breach too", () => {
    const j = judgement()
    j.learn(exchangeOf(undefined, { url: `${TARGET}/v1/intents/0x1?receipt=first-receipt-AAAA` }))
    j.channel(channel(`${TARGET}/v1/realtime?receipt=zq98x7w6v5u4t3s2`))
    expect(j.findings().traffic?.clientRuleBreaches?.map(({ message }) => message.split(' (')[0])).toEqual([
      `GET ${TARGET}/v1/realtime?receipt=$IPTS_INTENT_RECEIPT_2`,
    ])
  })

  test('each is judged by the realtime checks of the profile, and by no other check', () => {
    const statuses = (j: TrafficJudgement) =>
      Object.fromEntries(j.findings().checks.map(({ id, status }) => [id, status]))
    const unseen = statuses(judgement(profile))
    const j = judgement(profile)
    const received = (data: string) => ({ type: 'receive' as const, time: 2, opcode: 1, data })
    j.channel({
      ...channel(`${TARGET}/v1/realtime?ticket=t-0123456789`),
      webSocketMessages: [received('{"type":"subscribed"}'), received('{"kind":"pending"}'), received('not json')],
    })
    const outcome = j.findings().checks.find(({ id }) => id === 'realtime/messages-as-stated')
    expect(outcome?.status).toBe('failed')
    expect(outcome?.evidence?.message).toContain('message 3 of the WebSocket, ')
    const judged = statuses(j)
    const changed = Object.keys(judged).filter((id) => judged[id] !== unseen[id])
    expect(changed).toEqual(['realtime/messages-as-stated'])
    const asStated = judgement(profile)
    asStated.channel({
      ...channel(`${TARGET}/v1/realtime?ticket=t-0123456789`),
      webSocketMessages: [received('{"type":"subscribed"}')],
    })
    expect(statuses(asStated)['realtime/messages-as-stated']).toBe('passed')
  })

  test('an upgrade recorded without its messages is a channel of none', () => {
    const j = judgement(profile)
    const { webSocketMessages: _none, ...upgrade } = channel(`${TARGET}/v1/realtime?topic=a`)
    j.channel(upgrade)
    expect(j.findings().traffic?.channels).toEqual({ opened: 1, messages: 0 })
  })

  test.each([
    [10, 10],
    [11, 11],
  ])('%i channels with a receipt in their URL: %i breaches listed', (opened, listed) => {
    const j = judgement()
    for (let n = 1; n <= opened; n++) j.channel(channel(`${TARGET}/v1/realtime?receipt=rcpt_${n}_0123456789`))
    const breaches = j.findings().traffic?.clientRuleBreaches ?? []
    expect(breaches).toHaveLength(listed)
    expect(breaches.at(-1)!.message).toEqual(
      opened > 10
        ? "and 1 more WebSocket channels whose upgrade's URL carried a receipt"
        : expect.stringContaining('(WebSocket channel 10)'),
    )
  })

  test('an upgrade recorded with messages but no response opened no channel', () => {
    const j = judgement()
    const { response: _none, ...unanswered } = channel(`${TARGET}/v1/realtime?receipt=rcpt_0123456789`)
    j.judge(unanswered, false)
    expect(j.findings().traffic).not.toHaveProperty('channels')
    expect(j.findings().traffic).not.toHaveProperty('clientRuleBreaches')
  })

  test('ten are named, the rest counted in one more', () => {
    const j = judgement()
    for (let n = 1; n <= 12; n++) j.channel(channel(`${TARGET}/v1/realtime?receipt=rcpt_${n}_0123456789`))
    const breaches = j.findings().traffic?.clientRuleBreaches ?? []
    expect(breaches).toHaveLength(11)
    expect(breaches[9]!.message).toContain('(WebSocket channel 10)')
    expect(breaches[10]).toEqual({
      requirement: 'RCPT-HANDLING',
      message: "and 2 more WebSocket channels whose upgrade's URL carried a receipt",
    })
  })
})

describe('TrafficJudgement: a secret forgotten is redacted from what was kept with it', () => {
  test('in the evidence and the upstream errors kept before it was learned', () => {
    const secret = 'tok-4f1c9a7b2e'
    const j = judgement()
    j.judge(exchangeOf(responseOf(200, { 'content-type': 'text/html' }, { items: [secret] })))
    j.upstreamFailed({
      ...exchangeOf(undefined, unaddressed({ url: `${TARGET}/v1/traders/${secret}/pnl` })),
      error: { code: 'ECONNREFUSED', message: 'refused' },
    })
    expect(JSON.stringify(j.findings())).toContain(secret)
    j.learn(exchangeOf(undefined, { headers: { 'x-api-key': secret } }))
    for (let n = 0; n < SECRETS_REMEMBERED; n++)
      j.learn(exchangeOf(undefined, { headers: { 'x-api-key': `other-key-${n}-0123456789` } }))
    expect(j.secrets.list().some(({ value }) => value === secret)).toBe(false)
    const findings = j.findings()
    expect(JSON.stringify(findings.checks)).not.toContain(secret)
    expect(findings.errors.join('\n')).not.toContain(secret)
    expect(findings.errors[0]).toContain('/v1/traders/$IPTS_API_KEY/pnl')
  })
})

describe('TrafficJudgement: the relations between responses', () => {
  test('judge the responses in the order shown, and their findings are redacted with the secrets learned', () => {
    const receipt = 'rcpt_5e5e5e5e5e5e5e5e'
    const j = judgement()
    const repeated = () =>
      exchangeOf(responseOf(200, { ...JSON_TYPE, 'x-request-id': receipt }, { items: [] }), {
        url: `${MARKETS}?receipt=${receipt}`,
      })
    j.judge(repeated())
    j.judge(repeated())
    const outcome = j.findings().checks.find((check) => check.id === 'relations/request-id-unique')
    expect(outcome?.status).toBe('failed')
    const shown = JSON.stringify(outcome)
    expect(shown).not.toContain(receipt)
    expect(shown).toContain('$IPTS_INTENT_RECEIPT')
  })

  test("take the round the HAR's senders name: a soak round's findings say so", () => {
    const j = judgement()
    const sameId = () => exchangeOf(responseOf(200, { ...JSON_TYPE, 'x-request-id': 'req-00000001' }, { items: [] }))
    j.judge(sameId(), true, ['soak round 3'])
    j.judge(sameId(), true, ['soak round 3'])
    const outcome = j.findings().checks.find((check) => check.id === 'relations/request-id-unique')
    expect(outcome?.status).toBe('failed')
    expect(outcome?.evidence?.sample?.round).toBe(3)
  })
})
