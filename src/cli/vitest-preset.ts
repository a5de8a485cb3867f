import { packageJson } from '../core/package-root.js'

/**
 * `ipts-conformance/vitest`, the vitest mode's preset: a project's vitest.config.mjs is the one line
 * `export { default } from 'ipts-conformance/vitest'`, and `npx vitest run` runs the suite of this package's own
 * dist/suites with the settings of the IPTS_* variables (vitest.config.ts). vitest is an optional peer dependency:
 * when it cannot be found beside this package (not installed, or run by npx from its cache), one line says to install
 * it, exit 2, before vitest.config.ts's own imports of vitest would fail with a module-resolution trace.
 */
try {
  import.meta.resolve('vitest/config')
} catch {
  const { vitest: range } = (packageJson as { peerDependencies?: Record<string, string> }).peerDependencies ?? {}
  process.stderr.write(
    `ipts-conformance: the vitest mode needs vitest installed beside ipts-conformance: npm install --save-dev vitest@'${range}'\n`,
  )
  process.exit(2)
}

const { default: config } = await import('../../vitest.config.js')
export default config
