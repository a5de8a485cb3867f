/**
 * A document's sections between `<!-- NAME:start -->` and `<!-- NAME:end -->` are generated (npm run docs, and
 * npm run bench for its table); everything else is written by hand. `document` names the file in an error.
 */
function markerPositions(text: string, name: string, document: string): { start: number; end: number } {
  const [startMarker, endMarker] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`]
  const start = text.indexOf(startMarker)
  const end = text.indexOf(endMarker)
  if (start < 0 || end < start)
    throw new Error(`${document} needs the markers ${startMarker} and ${endMarker}, in that order`)
  return { start: start + startMarker.length, end }
}

/** The generated text between the section's markers, without its surrounding blank lines. */
export function generatedSection(text: string, name: string, document: string): string {
  const { start, end } = markerPositions(text, name, document)
  return text.slice(start, end).trim()
}

export function withGeneratedSection(text: string, name: string, section: string, document: string): string {
  const { start, end } = markerPositions(text, name, document)
  return `${text.slice(0, start)}\n${section}\n${text.slice(end)}`
}
