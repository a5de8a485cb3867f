import { execFile, type ExecFileException } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { SignedBodies } from '../profile/profile.js'

/** The most a signing command may print: one body. */
const MAX_BODY_BYTES = 1024 * 1024

/** A signed body, or why none could be had (never the signing tool's own output: its stderr may hold secrets). */
export type SignedBodyResult = { body: string } | { problem: string }

/**
 * Signs in this process for a signing command it knows, giving what the command would print; undefined runs the command
 * as a process. The self-tests sign for the reference's own `reference sign` so, without a process per body.
 */
export type SignInProcess = (command: readonly string[]) => string | undefined

/**
 * The signed bodies of a run's writes, one per submission. The suite holds no signing key: a body is a pre-signed file
 * (each file used once per run, so that no body is sent under two keys) or what the user's own signing tool prints,
 * run without a shell in the profile's folder, bounded in time and output.
 */
export class SignedBodySource {
  private readonly usedFiles = new Set<string>()

  constructor(
    private readonly baseDir: string,
    private readonly timeoutMs: number,
    private readonly signInProcess?: SignInProcess,
  ) {}

  /**
   * One fresh body for the named write operation; `where` names its profile key in a problem. `fill` fills in the
   * command's arguments of a chained step: the values of the earlier answer it takes.
   */
  async next(bodies: SignedBodies, where: string, fill?: (argument: string) => string): Promise<SignedBodyResult> {
    const printed =
      'files' in bodies
        ? await this.nextFile(bodies.files, where)
        : await this.run(fill ? bodies.command.map(fill) : bodies.command, where)
    if ('problem' in printed) return printed
    try {
      JSON.parse(printed.body)
    } catch {
      return { problem: `${where} gave a body that is not JSON (request bodies are JSON)` }
    }
    return printed
  }

  private async nextFile(files: readonly string[], where: string): Promise<SignedBodyResult> {
    const file = files.map((name) => resolve(this.baseDir, name)).find((path) => !this.usedFiles.has(path))
    if (file === undefined)
      return {
        problem: `${where}.files: all ${files.length} pre-signed bodies are used; a body is sent once per run (list more files)`,
      }
    this.usedFiles.add(file)
    try {
      return { body: (await readFile(file, 'utf8')).replace(/\r?\n$/, '') }
    } catch (error) {
      return { problem: `${where}.files: ${file} cannot be read (${(error as { code?: string }).code ?? 'error'})` }
    }
  }

  private run(command: readonly string[], where: string): Promise<SignedBodyResult> {
    const signed = this.signInProcess?.(command)
    if (signed !== undefined) return Promise.resolve({ body: signed.replace(/\r?\n$/, '') })
    const [program, ...args] = command
    return new Promise((settle) => {
      execFile(
        program!,
        args,
        { cwd: this.baseDir, timeout: this.timeoutMs, maxBuffer: MAX_BODY_BYTES, shell: false, windowsHide: true },
        (error, stdout) => {
          if (!error) return settle({ body: stdout.replace(/\r?\n$/, '') })
          settle({ problem: `${where}.command ${this.whyItFailed(error)} (its output is not shown)` })
        },
      )
    })
  }

  /** How a signing command failed, from execFile's error. */
  private whyItFailed(error: ExecFileException): string {
    const { code, killed, signal } = error
    if (killed) return `did not finish within ${this.timeoutMs} ms`
    // Node's own string code for a command that printed more than maxBuffer; others are the spawn's (ENOENT, EACCES).
    if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return `printed more than ${MAX_BODY_BYTES} bytes`
    if (typeof code === 'string') return `could not be started (${code})`
    // A process ended by a signal has the code null.
    if (typeof code === 'number') return `exited with code ${code}`
    return `ended by ${signal}`
  }
}
