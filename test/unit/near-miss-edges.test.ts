import { describe, expect, test } from 'vitest'
import { nearMisses } from '../../src/generators/near-misses.js'

/** The near misses of a secret at their edges: from 8 characters, each kind exactly, full width in a URL only. */

const valuesOf = (secret: string, where: 'header' | 'url') =>
  Object.fromEntries(nearMisses(secret, where).map(({ kind, value }) => [kind, value]))

describe('nearMisses', () => {
  test('a secret of 7 characters has none; one of 8 has each kind', () => {
    expect(nearMisses('Abc-123', 'url')).toEqual([])
    expect(valuesOf('Abc-1234', 'header')).toEqual({
      'case-swapped': 'aBC-1234',
      'last-dropped': 'Abc-123',
      'first-dropped': 'bc-1234',
      'last-changed': 'Abc-1235',
      'first-changed': 'Bbc-1234',
    })
  })

  test.each([
    ['Abcdefgz', 'Abcdefga', 'Bbcdefgz'],
    ['Zbcdefg9', 'Zbcdefg0', 'abcdefg9'],
    ['-bcdefg-', '-bcdefgx', 'xbcdefg-'],
    // An x is a letter: it becomes y as any letter moves on, so what is not a letter nor a digit may become x.
    ['xbcdefgX', 'xbcdefgY', 'ybcdefgX'],
  ])('%s: the last changed is %s, the first changed %s (same class, wrapping)', (secret, last, first) => {
    expect(valuesOf(secret, 'header')['last-changed']).toBe(last)
    expect(valuesOf(secret, 'header')['first-changed']).toBe(first)
  })

  test('full width in a URL only, folded back by NFKC', () => {
    const url = valuesOf('Abc-1234', 'url')
    expect(url['full-width']).toBe('Ａｂｃ－１２３４')
    expect(url['full-width']!.normalize('NFKC')).toBe('Abc-1234')
    expect(Object.keys(url)).toHaveLength(6)
  })

  test('full width covers printable ASCII from ! to ~ and no further: a space stays a space', () => {
    expect(valuesOf('!ab~ cd\u007f', 'url')['full-width']).toBe('\uff01\uff41\uff42\uff5e \uff43\uff44\u007f')
  })

  test('a near miss that is the secret itself is left out (no letter to swap)', () => {
    expect(Object.keys(valuesOf('12345678', 'header'))).toEqual([
      'last-dropped',
      'first-dropped',
      'last-changed',
      'first-changed',
    ])
  })
})
