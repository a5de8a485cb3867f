import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { parseSubcommandArgs, reportFlags, subcommandHelp, trafficProfile } from '../../src/cli/subcommand-args.js'

/**
 * The flags and arguments of the subcommands that judge traffic or compare reports (check-har, proxy, compare): a flag
 * wins over its variable, a variable is named where its value is refused, a default fills what neither gives, and the
 * count of arguments is exact.
 */

afterEach(() => void vi.restoreAllMocks())

describe('parseSubcommandArgs', () => {
  test('a flag wins over its variable; a variable gives what no flag does; a default fills the rest', () => {
    const env = { IPTS_MIN_ASSESSED: '40', IPTS_STRICT: 'yes', IPTS_REPORT_DIR: 'from-env' }
    expect(parseSubcommandArgs(['a.har', '--report-dir', 'from-flag'], reportFlags, 1, env)).toEqual({
      values: { 'report-dir': 'from-flag', strict: true, 'min-assessed': 40, baseline: undefined },
      positionals: ['a.har'],
    })
    expect(parseSubcommandArgs(['a.har'], reportFlags, 1).values).toEqual({
      'report-dir': './conformance-report',
      strict: undefined,
      'min-assessed': undefined,
      baseline: undefined,
    })
  })

  test('a value refused is named by where it came from: the variable, or the flag that won over it', () => {
    expect(() => parseSubcommandArgs(['a.har'], reportFlags, 1, { IPTS_MIN_ASSESSED: '101' })).toThrow(
      /^IPTS_MIN_ASSESSED must be from 0 to 100, got 101$/,
    )
    expect(() =>
      parseSubcommandArgs(['a.har', '--min-assessed', '-1'], reportFlags, 1, { IPTS_MIN_ASSESSED: '5' }),
    ).toThrow(/^--min-assessed must be from 0 to 100, got -1$/)
  })

  test('an empty variable is said once on stderr and counts as not given', () => {
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true))
    expect(parseSubcommandArgs(['a.har'], reportFlags, 1, { IPTS_BASELINE: ' ' }).values.baseline).toBeUndefined()
    expect(written).toEqual(['ipts-conformance: IPTS_BASELINE is set but empty: not given\n'])
  })

  test('the arguments are exactly as many as the subcommand takes', () => {
    expect(() => parseSubcommandArgs([], reportFlags, 1)).toThrow(/^missing argument \(see --help\)$/)
    expect(() => parseSubcommandArgs(['a', 'b'], reportFlags, 2)).not.toThrow()
    expect(() => parseSubcommandArgs(['a', 'b', 'c'], reportFlags, 2)).toThrow(
      /^unexpected argument "c" \(see --help\)$/,
    )
  })

  test('its help is the usage, the text about it, and each flag', () => {
    const help = subcommandHelp('ipts-conformance x FILE', 'Does x.', reportFlags).split('\n')
    expect(help.slice(0, 4)).toEqual(['Usage: ipts-conformance x FILE', '', 'Does x.', ''])
    expect(help.filter((line) => line.startsWith('  --'))).toHaveLength(reportFlags.length)
  })
})

describe('trafficProfile', () => {
  test('no path is no profile; a path is the profile file read and checked', async () => {
    expect(await trafficProfile(undefined)).toBeUndefined()
    const file = join(mkdtempSync(join(tmpdir(), 'ipts-traffic-profile-')), 'profile.yaml')
    writeFileSync(file, 'profile:\n  marketStatuses: [open]\n')
    expect((await trafficProfile(file))?.values).toEqual({ marketStatuses: ['open'] })
    writeFileSync(file, 'profile:\n  nope: 1\n')
    await expect(trafficProfile(file)).rejects.toThrow("unknown key 'profile.nope'")
  })
})
