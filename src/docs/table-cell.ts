/** Text for a cell of a Markdown table: its bars escaped and its lines joined, so that it stays one cell of one row. */
export const tableCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
