// What the admin's date input reads (web/src/common/fecha.ts): Spanish spellings of a day and a
// time, as the wall clock in the API's notation; anything else is no date. No store is involved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fechaFromText, fechaText } from '../../web/src/common/fecha.js';

describe('the admin\'s date input', () => {
  it('when a day alone is typed, then it is that whole day, in every spelling Spanish settings use', () => {
    for (const text of ['25/12/2026', ' 25/12/2026 ', '25-12-2026', '25.12.2026', '25/12/26']) {
      assert.equal(fechaFromText(text), '2026-12-25T00:00:00.000Z', text);
    }
    assert.equal(fechaFromText('5/1/27'), '2027-01-05T00:00:00.000Z');
  });

  it('when a day and a time are typed, then the time is the wall clock as typed, on the 24-hour clock or with a. m./p. m.', () => {
    assert.equal(fechaFromText('25/12/2026 21:30'), '2026-12-25T21:30:00.000Z');
    assert.equal(fechaFromText('25/12/2026 9:05'), '2026-12-25T09:05:00.000Z');
    assert.equal(fechaFromText('25/12/2026 21:30:15'), '2026-12-25T21:30:15.000Z');
    assert.equal(fechaFromText('25/12/2026 9:30 p. m.'), '2026-12-25T21:30:00.000Z');
    assert.equal(fechaFromText('25/12/2026 12:00 a. m.'), '2026-12-25T00:00:00.000Z');
    assert.equal(fechaFromText('25/12/2026 12:15 pm'), '2026-12-25T12:15:00.000Z');
    assert.equal(fechaFromText('25/12/2026 00:00'), '2026-12-25T00:00:00.000Z');
  });

  it('when the text is no real day or time, then it means nothing, never another date', () => {
    for (const text of ['', '2026', '25/12', '12/25/2026', '31/02/2026', '25/12/2026 24:00', '25/12/2026 21:60', '25/12/2026 13:00 p. m.', '25/12/2026 mañana', '25/12/20266', '2026-12-25', '25/12-2026']) {
      assert.equal(fechaFromText(text), undefined, text);
    }
  });

  it('when a time is typed where only a day is asked for, then it means nothing', () => {
    assert.equal(fechaFromText('25/12/2026', { time: false }), '2026-12-25T00:00:00.000Z');
    assert.equal(fechaFromText('25/12/2026 21:30', { time: false }), undefined);
  });

  it('when a fecha is shown, then it reads back as the same fecha', () => {
    for (const fecha of ['2026-12-25T00:00:00.000Z', '2026-12-25T21:30:00.000Z', '2026-12-25T21:30:15.000Z']) {
      assert.equal(fechaFromText(fechaText(fecha)), fecha);
    }
  });
});
