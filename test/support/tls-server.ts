import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

/** An HTTPS server on 127.0.0.1 with the fixture certificate (test/fixtures/tls), answering {} to anything. */
export async function startTlsServer(): Promise<{ port: number; close(): Promise<void> }> {
  const fixtures = join(import.meta.dirname, '..', 'fixtures', 'tls')
  const server = createServer(
    { key: readFileSync(join(fixtures, 'key.pem')), cert: readFileSync(join(fixtures, 'cert.pem')) },
    (_, res) => res.end('{}'),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
