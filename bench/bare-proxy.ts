import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'

/**
 * The floor of what any proxy costs here: a forwarding proxy with nothing else (no judging, no HAR), a process of its
 * own started as the suite's proxy is, on the same undici. Arguments: the upstream URL and the exchanges before it
 * exits.
 */
const [upstream, maxRequests] = process.argv.slice(2) as [string, string]
const PER_CONNECTION = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host'])
const dispatcher = new Agent()
let forwarded = 0

const server = createServer((incoming, outgoing) => void forward(incoming, outgoing).catch(() => outgoing.destroy()))

async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !PER_CONNECTION.has(name)))
  const answer = await request(`${upstream}${incoming.url}`, {
    method: 'GET',
    headers: headers as Record<string, string>,
    dispatcher,
  })
  outgoing.writeHead(
    answer.statusCode,
    Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_CONNECTION.has(name))) as Record<
      string,
      string
    >,
  )
  for await (const chunk of answer.body) outgoing.write(chunk)
  outgoing.end()
  if (++forwarded >= Number(maxRequests)) server.close(() => void dispatcher.close())
}
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`),
)
