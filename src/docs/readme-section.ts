/** The README section between these markers is generated (npm run docs); everything else is written by hand. */
export const SECTION_START = '<!-- checks:start -->'
export const SECTION_END = '<!-- checks:end -->'

function markerPositions(readme: string): { start: number; end: number } {
  const start = readme.indexOf(SECTION_START)
  const end = readme.indexOf(SECTION_END)
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${SECTION_START} and ${SECTION_END}, in that order`)
  return { start: start + SECTION_START.length, end }
}

/** The generated text between the markers, without its surrounding blank lines. */
export function generatedSection(readme: string): string {
  const { start, end } = markerPositions(readme)
  return readme.slice(start, end).trim()
}

export function withGeneratedSection(readme: string, section: string): string {
  const { start, end } = markerPositions(readme)
  return `${readme.slice(0, start)}\n${section}\n${readme.slice(end)}`
}
