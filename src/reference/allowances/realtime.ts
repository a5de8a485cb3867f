import type { Allowance } from '../types.js'

const WRITES = { allowWrites: true } as const
/** The messages sent so far under the extra-members allowance, to number them. */
let sent = 0

export const realtimeAllowances: readonly Allowance[] = [
  {
    name: 'channel-refused-by-close-only',
    description: 'A refused channel is closed with 4403 and no error message before it.',
    permittedBy: 'RCPT-CHANNEL-CREDENTIAL',
    onChannelOutput(output) {
      if (output.message?.type === 'error' && output.close) delete output.message
    },
  },
  {
    name: 'channel-refused-by-message-only',
    description: 'A refused channel gets an error message and the connection stays open.',
    permittedBy: 'RCPT-CHANNEL-CREDENTIAL',
    onChannelOutput(output) {
      if (output.message?.type === 'error') delete output.close
    },
  },
  {
    name: 'channel-messages-extra-members',
    description: 'Every message of a channel carries members its profile does not name: a sequence number and a time.',
    permittedBy: 'RT-MESSAGES-AS-STATED',
    run: WRITES,
    onChannelOutput(output) {
      if (output.message) Object.assign(output.message, { sequence: ++sent, sentAt: new Date().toISOString() })
    },
  },
  {
    name: 'channel-heartbeat-pings',
    description: 'A WebSocket ping (a heartbeat control frame, no message) goes before every message of a channel.',
    permittedBy: 'RT-MESSAGES-AS-STATED',
    run: WRITES,
    onChannelOutput(output) {
      output.ping = true
    },
  },
]
