// The comparable form takes a short way for ASCII text (src/catalogue/comparable.ts): it must give
// what the full fold gives, for every text, since titles stored before and after compare by it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparable } from '../../src/catalogue/comparable.js';
import { seededRandom, seedFor } from '../random.js';

/** The fold as the contract states it: trimmed, diacritics removed, case folded. */
const fullFold = (text: string) => text.trim().normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().toLowerCase().normalize('NFC');

describe('comparable forms', () => {
  it('when a text is ASCII or not, then its comparable form is the full fold of it', (t) => {
    const random = seededRandom(seedFor(t));
    const alphabet = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), 'á', 'Ñ', 'ß', 'ﬁ', 'İ', 'e\u0301', '\u00a0', '\u2003'];
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      assert.equal(comparable(text), fullFold(text), JSON.stringify(text));
    }
  });

  it('when titles differ only in case, accents and spaces around them, then they share one comparable form', () => {
    assert.equal(comparable(' La Canción '), 'la cancion');
    assert.equal(comparable('LA CANCION'), 'la cancion');
    assert.equal(comparable('\tStraße\n'), 'strasse');
  });
});
