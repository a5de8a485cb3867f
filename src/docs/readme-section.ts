/** The README sections between `<!-- NAME:start -->` and `<!-- NAME:end -->` are generated (npm run docs); everything else is written by hand. */
export type SectionName = 'checks' | 'flags'

function markerPositions(readme: string, name: SectionName): { start: number; end: number } {
  const [startMarker, endMarker] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`]
  const start = readme.indexOf(startMarker)
  const end = readme.indexOf(endMarker)
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${startMarker} and ${endMarker}, in that order`)
  return { start: start + startMarker.length, end }
}

/** The generated text between the section's markers, without its surrounding blank lines. */
export function generatedSection(readme: string, name: SectionName): string {
  const { start, end } = markerPositions(readme, name)
  return readme.slice(start, end).trim()
}

export function withGeneratedSection(readme: string, name: SectionName, section: string): string {
  const { start, end } = markerPositions(readme, name)
  return `${readme.slice(0, start)}\n${section}\n${readme.slice(end)}`
}
