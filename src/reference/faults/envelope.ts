import { bodyFault } from '../record-edits.js'
import type { Fault } from '../types.js'

// On the vault and the PnL, which have no pages, so that following cursors is not disturbed.
export const envelopeFaults: readonly Fault[] = [
  bodyFault(
    'vault-data-as-array',
    'The vault data is an array holding the vault.',
    ['envelope/data'],
    'getVault',
    (body) => {
      body.data = [body.data]
    },
  ),
  bodyFault(
    'vault-cursor-as-number',
    'The vault answers cursor as a JSON number.',
    ['envelope/cursor-type'],
    'getVault',
    (body) => {
      body.cursor = 2
    },
  ),
  bodyFault(
    'pnl-checkpoint-as-number',
    'The PnL answers checkpoint as a JSON number.',
    ['envelope/checkpoint-type', 'properties/well-formed-address-answered'],
    'getTraderPnl',
    (body) => {
      body.checkpoint = Number(body.checkpoint)
    },
  ),
  bodyFault(
    'vault-request-id-as-number',
    'The vault body carries requestId as a JSON number.',
    ['envelope/request-id-type'],
    'getVault',
    (body) => {
      body.requestId = 42
    },
  ),
]
