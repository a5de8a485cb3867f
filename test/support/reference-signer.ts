import { Writable } from 'node:stream'
import { referenceSign } from '../../src/cli/reference-sign.js'
import type { SignInProcess } from '../../src/generators/signed-bodies.js'

/**
 * The reference's own signing command (specs/reference-profile.yaml: `node ../bin/ipts-conformance.js reference sign
 * KIND [HASH]`) answered in this process by the code the command runs, without a process per signed body; any other
 * command runs as a process. test/runs/writes.test.ts runs the command itself once, as the profile names it.
 */
export const signAsTheReference: SignInProcess = (command) => {
  const [program, bin, subcommand, verb, ...args] = command
  if (program !== 'node' || !bin?.endsWith('/bin/ipts-conformance.js') || subcommand !== 'reference' || verb !== 'sign')
    return undefined
  let printed = ''
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      printed += chunk.toString()
      done()
    },
  })
  referenceSign(args, stdout)
  return printed
}
