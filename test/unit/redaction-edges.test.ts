import { describe, expect, test } from 'vitest'
import { mentionsSecret, redact, telltaleLength, type Secret } from '../../src/http/secrets.js'

/**
 * The redaction of secrets at the edges of what it judges with: the chance a stretch holds (an alphabet, a bound met
 * exactly), which pieces are signs of a secret, the characters next to a mask, the stretches around a part found, and
 * the names a redacted text is not searched again in. Each case is a text made by hand and the text it becomes.
 */

const one = (value: string, placeholder = '$S'): Secret[] => [{ value, placeholder }]

describe('telltaleLength: the characters a stretch needs to hold CHANCE_BITS (45)', () => {
  test.each([
    ['upper-case hex, 4 bits a character', 'A1B2C3D4E5F6A7B8', 12],
    ['digits and upper-case letters, not hex (36 characters)', 'Z1Y2X3W4V5U6', 9],
    ['small letters and ASCII punctuation (26 + 32 characters)', 'a-b-c-d-e-f-g-h', 8],
    ['ASCII punctuation alone, 5 bits a character: 9 of them hold 45 bits exactly', '!#$%&()*+,-', 9],
  ])('%s', (_, text, length) => {
    expect(telltaleLength(text, 0, 4)).toBe(length)
  })
})

describe('a piece of a secret found alone', () => {
  test('of three distinct characters is a sign of its secret', () => {
    // 14 digits hold 46.5 bits: the shortest piece of a secret of digits.
    expect(redact('id 01201201201201 end', one('012012012012012012012'))).toBe('id [part of $S] end')
  })

  test('of fewer than three distinct characters is not (a filler)', () => {
    expect(redact('x 00000000000000 y', one('0000000000000000000012'))).toBe('x 00000000000000 y')
  })

  test('that ends the secret, PIECE characters long, is cut', () => {
    // 'y8Xx7Ww6': eight characters of 62 hold 47.6 bits.
    expect(redact('see y8Xx7Ww6.', one('Zz9Yy8Xx7Ww6'))).toBe('see [part of $S].')
  })

  test('is not the end of a secret too short to hold the chance', () => {
    // From '0' on, 'Qw7Er5Ty01201201' holds only 8 digits: no piece begins there.
    expect(redact('code 01201201', one('Qw7Er5Ty01201201'))).toBe('code 01201201')
  })
})

describe('the characters next to a mask', () => {
  test('a beginning right before a mask, or before a space and a mask, is cut', () => {
    expect(redact('Ab12****', one('Ab12cd34Ef'))).toBe('[part of $S]****')
    expect(redact('Ab12 ****', one('Ab12cd34Ef'))).toBe('[part of $S] ****')
  })

  test('an end right after a mask, or after a mask and a space, is cut', () => {
    expect(redact('****Ef90', one('Ab12cd34Ef90'))).toBe('****[part of $S]')
    expect(redact('**** Ef90', one('Ab12cd34Ef90'))).toBe('**** [part of $S]')
  })

  test('a text of mask characters alone is searched as well', () => {
    expect(redact('xxxx****', one('xxxxAb12cd34'))).toBe('[part of $S]****')
  })

  test('the secret begins at the first characters shown, not somewhere before the mask', () => {
    expect(redact('Ab12zz****', one('Ab12cd34Ef'))).toBe('Ab12zz****')
  })

  test('the secret ends at the last characters shown, not somewhere after the mask', () => {
    expect(redact('****zzEf90', one('Ab12cd34Ef90'))).toBe('****zzEf90')
  })

  test('a beginning after the mask, or an end before it, is no disclosure', () => {
    expect(redact('****Ab12 end', one('Ab12cd34Ef'))).toBe('****Ab12 end')
    expect(redact('**** Ab12 end', one('Ab12cd34Ef'))).toBe('**** Ab12 end')
    expect(redact('Ef90****', one('Ab12cd34Ef90'))).toBe('Ef90****')
  })

  test('is compared with the secret as it is, with its spaces as they are or as +', () => {
    // Six characters: no piece (PIECE is 8), only the mask makes them a disclosure.
    expect(redact('key rcpt a**** end', one('rcpt ab12 cd34'))).toBe('key [part of $S]**** end')
    expect(redact('key rcpt+a**** end', one('rcpt ab12 cd34'))).toBe('key [part of $S]**** end')
  })

  test("is not compared with the secret's own decoded views", () => {
    // 'abAcdef12345' is a view of the secret, not the secret: 'abAc' shown before a mask discloses nothing of it.
    expect(redact('abAc**** z', one('ab%41cdef12345'))).toBe('abAc**** z')
  })
})

describe('the stretches of a secret around a part found', () => {
  test('a secret with a character dropped is cut whole, the characters before the drop included', () => {
    // '3' dropped: the first stretch found begins at 'd'; 'Ab' goes on with the secret before it, a character skipped.
    expect(redact('AbdEf5hIj7lMn9p', one('Ab3dEf5hIj7lMn9p'))).toBe('[part of $S]')
  })

  test('the stretches are looked for in every view the secret was found in, not the last alone', () => {
    // Found as it is and percent-decoded ('AbdEf5h…'): only as it is does '%41b' go on with the secret before the drop.
    expect(redact('%41bdEf5hIj7lMn9p', one('%41b3dEf5hIj7lMn9p'))).toBe('[part of $S]')
  })

  test('the same, the secret written with its spaces as +', () => {
    expect(redact('Abd+Ef5h+Ij7l+Mn9p', one('Ab3d Ef5h Ij7l Mn9p'))).toBe('[part of $S]')
  })

  test('a beginning of a secret is cut to its last character, past its last stretch', () => {
    // The last stretch within 'Ab3dEf5hqwert' is 'Ef5hqwer'; the 't' after it goes on with the secret.
    expect(redact('Ab3dEf5hqwert!', one('Ab3dEf5hqwertyuiopas'))).toBe('[part of $S]!')
  })

  test('an end of a secret too short to hold the chance is not a stretch of its own', () => {
    expect(redact('Ab3dEf5hIj7lMn9p then Mn9p', one('Ab3dEf5hIj7lMn9p'))).toBe('$S then Mn9p')
  })

  test('every stretch that begins with the same four characters is looked for', () => {
    // Two stretches of the secret begin with 'qrst'; the first, letters and '-' only, is no piece, only a stretch.
    const secret = 'Ab3dEf5h0 qrst-uvwq qrst-mnop'
    expect(redact(`${secret} then qrst-uvw`, one(secret))).toBe('$S then[part of $S]')
  })

  test('a place whose first four characters hash like a stretch but are none is passed over', () => {
    // 'BB' and 'Aa' have the same hash (66 * 31 + 66 = 65 * 31 + 97).
    expect(redact('Aa12cd34Ef56gh78 BB12', one('Aa12cd34Ef56gh78'))).toBe('$S BB12')
  })

  test('a secret twice side by side is one span, named once', () => {
    expect(redact('Qw7Er5Ty9UQw7Er5Ty9U', one('Qw7Er5Ty9U'))).toBe('$S')
  })
})

describe('the names put in a redacted text', () => {
  const receiptAndName: Secret[] = [
    { value: 'Qw7Er5Ty9U', placeholder: '$A' },
    { value: '$R', placeholder: '$K' },
    { value: 'receipt-of-intent-a', placeholder: '$R' },
  ]

  test('are not searched again, a secret that is a name or begins one included', () => {
    expect(redact('x receipt-of-intent-a y', receiptAndName)).toBe('x $R y')
  })

  test('a secret the replacement makes, across a name, withholds the whole text', () => {
    const secrets: Secret[] = [
      { value: 'Qw7Er5Ty9U', placeholder: '$A' },
      { value: 'Kp9$AmN4xR', placeholder: '$B' },
    ]
    expect(redact('Kp9Qw7Er5Ty9UmN4xR', secrets)).toBe('[withheld: holds $A and $B, encoded]')
  })

  test('a secret the replacement makes, beginning with a name, withholds the whole text', () => {
    const secrets: Secret[] = [
      { value: 'Qw7Er5Ty9U', placeholder: '$A' },
      { value: '$AmN4xRz9', placeholder: '$B' },
    ]
    expect(redact('x Qw7Er5Ty9UmN4xRz9 y', secrets)).toBe('[withheld: holds $A and $B, encoded]')
  })
})

describe('a URL, redacted piece by piece', () => {
  const receipt: Secret = { value: 'receipt-of-intent-a', placeholder: '$IPTS_INTENT_RECEIPT' }

  test('keeps a path word that holds a stretch of the receipt, which a text as a whole loses', () => {
    expect(redact('/v1/proof-of-intents/receipt-of-intent-a', [receipt])).toBe(
      '/v1/proof-of-intents/$IPTS_INTENT_RECEIPT',
    )
    expect(redact('x /v1/proof-of-intents/receipt-of-intent-a', [receipt])).toBe(
      'x /v1/proof[part of $IPTS_INTENT_RECEIPT]s/$IPTS_INTENT_RECEIPT',
    )
  })

  test('is one of any scheme, or a path; a text that goes on after it is a text as a whole', () => {
    for (const scheme of ['https', 'wss', 'coap+tcp', 'x-y.z'])
      expect(redact(`${scheme}://h/proof-of-intents/receipt-of-intent-a`, [receipt])).toBe(
        `${scheme}://h/proof-of-intents/$IPTS_INTENT_RECEIPT`,
      )
    expect(redact('1x://h/proof-of-intents/receipt-of-intent-a', [receipt])).toBe(
      '1x://h/proof[part of $IPTS_INTENT_RECEIPT]s/$IPTS_INTENT_RECEIPT',
    )
    expect(redact('/v1/proof-of-intents/receipt-of-intent-a then', [receipt])).toBe(
      '/v1/proof[part of $IPTS_INTENT_RECEIPT]s/$IPTS_INTENT_RECEIPT then',
    )
  })

  test('is redacted as a whole text when a separator is itself a secret', () => {
    const slash: Secret = { value: '/', placeholder: '$SLASH' }
    expect(redact('/v1/proof-of-intents/receipt-of-intent-a', [receipt, slash])).toBe(
      '$SLASHv1$SLASHproof[part of $IPTS_INTENT_RECEIPT]s$SLASH$IPTS_INTENT_RECEIPT',
    )
  })

  test('does not search the names it put again, where a secret is a word of a name', () => {
    const key: Secret = { value: 'INTENT_RECEIPT', placeholder: '$IPTS_API_KEY' }
    expect(redact('/v1/proof-of-intents/receipt-of-intent-a', [receipt, key])).toBe(
      '/v1/proof-of-intents/$IPTS_INTENT_RECEIPT',
    )
  })
})

describe("a piece shown next to a mask, past the secret's format (words each followed by a separator)", () => {
  test('discloses the secret with 4 characters or more past every word of the format, and only at its start', () => {
    expect(mentionsSecret('sk_live_****', 'sk_live_5d6e7f8091a2b3c4'), 'the format alone').toBe(false)
    expect(mentionsSecret('7x_l****', '7x_live_5d6e7f8091a2b3c4'), 'no format: it begins with a digit').toBe(true)
    expect(mentionsSecret('abcd****', 'abcd5d6e7f8091a2b3c4'), 'no format: no separator').toBe(true)
    expect(mentionsSecret('abc****', 'abc5d6e7f8091a2b3c4'), 'three characters').toBe(false)
  })

  test("each of the format's separators ends a word of it: _ . / a space and -; nothing else does", () => {
    for (const separator of ['_', '.', '/', ' ', '-'])
      expect(mentionsSecret(`key${separator}live_****`, `key${separator}live_5d6e7f8091a2b3c4`), separator).toBe(false)
    expect(mentionsSecret('SK_Live_****', 'SK_Live_5d6e7f8091a2b3c4'), 'words in capitals').toBe(false)
    for (const separator of ['+', ':', '1'])
      expect(mentionsSecret(`key${separator}live_****`, `key${separator}live_5d6e7f8091a2b3c4`), separator).toBe(true)
  })
})
