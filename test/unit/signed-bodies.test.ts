import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SignedBodySource, type SignInProcess } from '../../src/generators/signed-bodies.js'

/** Generous, so that a loaded machine never ends a signing command that is meant to finish. */
const UNHURRIED_MS = 20_000
const MAX_BODY_BYTES = 1024 * 1024
const where = 'writes.operations.submitIntent.bodies'

let dir: string
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'ipts-signed-bodies-')))
  const files: Record<string, string> = {
    'first.json': '{"n":1}\n',
    'second.json': '{"n":2}\r\n',
    'two-newlines.json': '{"n":3}\n\n',
    'inner-newline.json': '{\n"n":4}',
    'not-json.txt': 'signed: yes\n',
  }
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('pre-signed files', () => {
  test('are read in their order, relative to the profile folder, each once, and then run out', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    const bodies = { files: ['first.json', './first.json', 'second.json'] }
    expect(await source.next(bodies, where)).toEqual({ body: '{"n":1}' })
    expect(await source.next(bodies, where), 'a file named again by another path is the same file').toEqual({
      body: '{"n":2}',
    })
    expect(await source.next(bodies, where)).toEqual({
      problem: `${where}.files: all 3 pre-signed bodies are used; a body is sent once per run (list more files)`,
    })
  })

  test('lose one line ending at their end, CRLF or LF, and no other', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    const bodies = { files: ['second.json', 'two-newlines.json', 'inner-newline.json'] }
    expect(await source.next(bodies, where)).toEqual({ body: '{"n":2}' })
    expect(await source.next(bodies, where)).toEqual({ body: '{"n":3}\n' })
    expect(await source.next(bodies, where)).toEqual({ body: '{\n"n":4}' })
  })

  test('that cannot be read or are not JSON give a problem naming the profile key', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    expect(await source.next({ files: ['missing.json'] }, where)).toEqual({
      problem: `${where}.files: ${join(dir, 'missing.json')} cannot be read (ENOENT)`,
    })
    expect(await source.next({ files: ['not-json.txt'] }, where)).toEqual({
      problem: `${where} gave a body that is not JSON (request bodies are JSON)`,
    })
  })
})

describe('a signing command signed in this process', () => {
  test('gets its arguments filled in and loses one line ending of what it prints', async () => {
    const seen: (readonly string[])[] = []
    const printed = ['{"signed":true}\r\n', '{"signed":\nfalse}\n']
    const signer: SignInProcess = (command) => {
      seen.push(command)
      return printed[seen.length - 1]
    }
    const source = new SignedBodySource(dir, UNHURRIED_MS, signer)
    const fill = (argument: string) => argument.replace('{hash}', '0xabc')
    expect(await source.next({ command: ['sign', '--of', '{hash}'] }, where, fill)).toEqual({
      body: '{"signed":true}',
    })
    expect(await source.next({ command: ['sign', '{hash}'] }, where)).toEqual({ body: '{"signed":\nfalse}' })
    expect(seen).toEqual([
      ['sign', '--of', '0xabc'],
      ['sign', '{hash}'],
    ])
  })

  test('that it does not know, or that prints no JSON, is judged as a process would be', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS, () => undefined)
    const printed = await source.next({ command: [process.execPath, '-e', 'console.log("[1]")'] }, where)
    expect(printed).toEqual({ body: '[1]' })
    const notJson = new SignedBodySource(dir, UNHURRIED_MS, () => 'signed: yes')
    expect(await notJson.next({ command: ['sign'] }, where)).toEqual({
      problem: `${where} gave a body that is not JSON (request bodies are JSON)`,
    })
  })
})

describe('a signing command run as a process', () => {
  const node = (script: string) => ({ command: [process.execPath, '-e', script] })
  const problem = (why: string) => ({ problem: `${where}.command ${why} (its output is not shown)` })

  test('runs in the profile folder with its arguments filled in, and loses one line ending', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    const script = 'console.log(JSON.stringify({ cwd: process.cwd() }, null, 1))'
    const fill = (argument: string) => (argument === '{script}' ? script : argument)
    expect(await source.next({ command: [process.execPath, '-e', '{script}'] }, where, fill)).toEqual({
      body: JSON.stringify({ cwd: dir }, null, 1),
    })
  })

  test('may print a body of 1 MiB, not one byte more', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    const printOf = (bytes: number) => node(`process.stdout.write(JSON.stringify('a'.repeat(${bytes - 2})))`)
    const atMost = await source.next(printOf(MAX_BODY_BYTES), where)
    expect('body' in atMost && atMost.body.length).toBe(MAX_BODY_BYTES)
    expect(await source.next(printOf(MAX_BODY_BYTES + 1), where)).toEqual(
      problem(`printed more than ${MAX_BODY_BYTES} bytes`),
    )
  })

  test('that fails says how, never with what it printed', async () => {
    const source = new SignedBodySource(dir, UNHURRIED_MS)
    expect(await source.next(node('console.error("secret-key-material"); process.exit(3)'), where)).toEqual(
      problem('exited with code 3'),
    )
    expect(await source.next(node('process.kill(process.pid, "SIGKILL")'), where)).toEqual(problem('ended by SIGKILL'))
    expect(await source.next({ command: [join(dir, 'no-such-signer')] }, where)).toEqual(
      problem('could not be started (ENOENT)'),
    )
  })

  test('that runs past its time is ended and says so', async () => {
    const source = new SignedBodySource(dir, 300)
    expect(await source.next(node('setTimeout(() => {}, 20000)'), where)).toEqual(
      problem('did not finish within 300 ms'),
    )
  })
})
