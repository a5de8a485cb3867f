const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const WORD = /true|false|null/y
const WHITESPACE = /[ \t\n\r]*/y
const INDENT = '  '

/** A JSON Pointer token (RFC 6901): ~ and / escaped. */
const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * A response body as HTML: pretty-printed, and each value at one of the JSON pointers (a schema violation's
 * instancePath) wrapped in <mark class="pointer">. Every string and number is kept as the target wrote it (a number
 * too long for a double stays whole), escaped with escapeHtml. Undefined when the text is not one whole JSON value (an
 * excerpt cut short).
 */
export function prettyJsonHtml(
  text: string,
  pointers: readonly string[],
  escapeHtml: (text: string) => string,
): string | undefined {
  const marked = new Set(pointers)
  let at = 0
  const take = (pattern: RegExp): string => {
    pattern.lastIndex = at
    const found = pattern.exec(text)
    if (!found) throw new SyntaxError(`no JSON at ${at}`)
    at = pattern.lastIndex
    return found[0]
  }
  const skipSpace = () => void take(WHITESPACE)
  const expect = (char: string) => {
    if (text[at] !== char) throw new SyntaxError(`${char} expected at ${at}`)
    at++
  }
  const value = (pointer: string, indent: string): string => {
    skipSpace()
    const first = text[at]
    const html =
      first === '{'
        ? container('}', pointer, indent, true)
        : first === '['
          ? container(']', pointer, indent, false)
          : first === '"'
            ? escapeHtml(take(STRING))
            : first === '-' || (first !== undefined && first >= '0' && first <= '9')
              ? escapeHtml(take(NUMBER))
              : escapeHtml(take(WORD))
    return marked.has(pointer)
      ? `<mark class="pointer" title="${escapeHtml(pointer || '(root)')}">${html}</mark>`
      : html
  }
  const container = (close: string, pointer: string, indent: string, members: boolean): string => {
    const open = text[at]!
    at++
    skipSpace()
    if (text[at] === close) {
      at++
      return `${open}${close}`
    }
    const inner = indent + INDENT
    const items: string[] = []
    for (let index = 0; ; index++) {
      skipSpace()
      let key = String(index)
      let name = ''
      if (members) {
        const raw = take(STRING)
        key = JSON.parse(raw) as string
        name = `${escapeHtml(raw)}: `
        skipSpace()
        expect(':')
      }
      items.push(`${inner}${name}${value(`${pointer}/${pointerToken(key)}`, inner)}`)
      skipSpace()
      if (text[at] === close) break
      expect(',')
    }
    at++
    return `${open}\n${items.join(',\n')}\n${indent}${close}`
  }
  try {
    const html = value('', '')
    skipSpace()
    return at === text.length ? html : undefined
  } catch {
    return undefined
  }
}
