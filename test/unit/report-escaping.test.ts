import { describe, expect, test } from 'vitest'
import { escapeHtml } from '../../reporters/html.js'
import { prettyJsonHtml } from '../../reporters/json-body.js'
import { escapeXml } from '../../reporters/junit.js'
import { escapeMarkdown } from '../../reporters/markdown.js'

/**
 * What the report writers escape: every character that ends a text or an attribute value in HTML and XML, and the two
 * characters a JSON Pointer token escapes (RFC 6901), so that a marked member whose name holds them is still marked.
 */

const MARKUP = `<a href="x" title='y'>&amp;</a>`

describe('escaping for the page and the JUnit XML', () => {
  test('escapeHtml escapes &, <, >, " and \'', () => {
    expect(escapeHtml(MARKUP)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;')
  })

  test('escapeHtml makes text of a number, a boolean, and nothing of nothing', () => {
    expect([escapeHtml(0), escapeHtml(false), escapeHtml(undefined)]).toEqual(['0', 'false', ''])
  })

  test('escapeXml escapes &, <, >, " and \'', () => {
    expect(escapeXml(MARKUP)).toMatch(/^&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;&amp;amp;&lt;\/a&gt;$/)
  })

  test('escapeXml puts U+FFFD for each character XML 1.0 cannot carry, and keeps tab, newline and return', () => {
    expect(escapeXml('a\u0000b\u001bc\uFFFEd\t\n\r')).toBe('a\uFFFDb\uFFFDc\uFFFDd\t\n\r')
  })
})

describe('escaping for report.md', () => {
  test('markup becomes entities, and each character of emphasis, code, links, tables and strikes gets a backslash', () => {
    expect(escapeMarkdown('a & <b> \\ ` * _ [x] | ~')).toBe('a &amp; &lt;b&gt; \\\\ \\` \\* \\_ \\[x\\] \\| \\~')
  })
})

describe('the pointers marked in a body', () => {
  test('a member whose name holds ~ or / is marked at its escaped pointer', () => {
    const html = prettyJsonHtml('{"a~b":1,"c/d":2,"e":3}', ['/a~0b', '/c~1d'], escapeHtml)!
    expect(html.match(/<mark /g)).toHaveLength(2)
    expect(html).toContain('<mark class="pointer" title="/a~0b">1</mark>')
    expect(html).toContain('<mark class="pointer" title="/c~1d">2</mark>')
  })
})
