import { schemaPattern } from '../contract/schemas.js'
import { UsageError } from '../core/errors.js'
import { SIGNED_KINDS, signedBody, type SignedKind } from '../reference/signer.js'

export function referenceSignHelp(): string {
  return [
    'ipts-conformance reference sign intent|cancellation [HASH] prints one fresh body signed by the reference trader',
    "(a cancellation of the intent HASH, if given): the signing tool its profile's writes name (POST /v1/intents,",
    "POST /v1/cancellations, and POST /v1/intents/HASH/cancellation with the intent's receipt in X-Receipt).",
  ].join('\n')
}

/**
 * `ipts-conformance reference sign KIND [INTENT]`: prints one fresh body of that kind signed by the reference trader.
 * It is the signing tool the reference's own profile names for its writes: the key stays with the tool, never with the
 * suite.
 */
export function referenceSign(argv: readonly string[], stdout: NodeJS.WritableStream): number {
  const [kind, intent, ...rest] = argv
  if (rest.length > 0 || !SIGNED_KINDS.includes(kind as SignedKind))
    throw new UsageError(
      `reference sign needs one kind of body: ${SIGNED_KINDS.join(' or ')} (a cancellation then the hash of the intent it cancels, if any)`,
    )
  if (intent !== undefined && (kind !== 'cancellation' || !schemaPattern('Hash').test(intent)))
    throw new UsageError(
      `reference sign: only a cancellation names an intent, by its hash (0x and 64 hex digits), got ${JSON.stringify(intent)}`,
    )
  stdout.write(`${signedBody(kind as SignedKind, intent)}\n`)
  return 0
}
