/**
 * A YAML parse error as one complete line: where (line and column) and what is wrong. The yaml package's message
 * ends in "at line L, column C:" followed by an excerpt of the text on the next lines.
 */
export function yamlProblem(error: unknown): string {
  const { message = String(error), linePos } = error as { message?: string; linePos?: [{ line: number; col: number }] }
  const what = message
    .replace(/ at line \d+, column \d+:[\s\S]*$/, '')
    .split('\n')[0]!
    .replace(/:\s*$/, '')
  return linePos
    ? `not valid YAML at line ${linePos[0].line}, column ${linePos[0].col}: ${what}`
    : `not valid YAML: ${what}`
}
