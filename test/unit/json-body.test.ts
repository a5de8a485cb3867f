import { describe, expect, test } from 'vitest'
import { escapeHtml } from '../../reporters/html.js'
import { prettyJsonHtml } from '../../reporters/json-body.js'

/**
 * A response body pretty-printed for report.html: its layout, the values kept as written, the marks, and what it
 * refuses.
 */

const pretty = (text: string, pointers: string[] = []) => prettyJsonHtml(text, pointers, escapeHtml)

describe('pretty-printing a body', () => {
  test('objects and arrays indented two spaces a level, empty ones kept short, whitespace around anything allowed', () => {
    expect(pretty(' {"a" : [1, {"b":null}, [] ,{}], "c":true,"d":false}\n')).toBe(
      [
        '{',
        '  &quot;a&quot;: [',
        '    1,',
        '    {',
        '      &quot;b&quot;: null',
        '    },',
        '    [],',
        '    {}',
        '  ],',
        '  &quot;c&quot;: true,',
        '  &quot;d&quot;: false',
        '}',
      ].join('\n'),
    )
  })

  test('numbers as the target wrote them: a sign, a fraction, an exponent, more digits than a double holds', () => {
    expect(pretty('[-0.5e+3, 12345678901234567890123, 0, 9]')).toBe(
      '[\n  -0.5e+3,\n  12345678901234567890123,\n  0,\n  9\n]',
    )
    expect(pretty('-1')).toBe('-1')
    expect(pretty('[1.25, 2E10, 3e-12]'), 'a fraction and an exponent of two digits, an exponent without a sign').toBe(
      '[\n  1.25,\n  2E10,\n  3e-12\n]',
    )
    expect(pretty('"a\\"<b>\\u0041"')).toBe('&quot;a\\&quot;&lt;b&gt;\\u0041&quot;')
  })

  test('marks the value at each pointer, the whole body at the root, a member whose name holds ~ or /', () => {
    expect(pretty('{"a~b":[1,2],"c":3}', ['/a~0b/1', '/c'])).toBe(
      '{\n  &quot;a~b&quot;: [\n    1,\n    <mark class="pointer" title="/a~0b/1">2</mark>\n  ],\n  &quot;c&quot;: <mark class="pointer" title="/c">3</mark>\n}',
    )
    expect(pretty('7', [''])).toBe('<mark class="pointer" title="(root)">7</mark>')
  })

  test.each([
    ['an excerpt cut short', '{"a": [1, 2'],
    ['a member without its colon', '{"a" 1}'],
    ['another character for the colon', '{"a"x1}'],
    ['another character for the comma', '[1x2]'],
    ['members without a comma', '{"a":1 "b":2}'],
    ['items without a comma', '[1 2]'],
    ['a name that is no string', '{a:1}'],
    ['a word it does not know', 'nul'],
    ['a character below the digits', '/'],
    ['a character above the digits', ':'],
    ['text after the value', '{} x'],
    ['a leading zero', '01'],
    ['nothing', ''],
    ['an unclosed string', '"abc'],
    ['an escape of fewer than four hex digits', '"\\u12"'],
  ])('is no whole JSON value: %s', (_, text) => {
    expect(pretty(text)).toBeUndefined()
  })
})
