// A cartelera JSON document is read a piece at a time, each record's text found and parsed whole
// (src/transfer/read/documentText.ts): a record, a string or an escape split between two of the
// file's 64 KiB pieces reads as one, a file of images' originals is never read far ahead of what
// the import has taken, and broken JSON is named as stream-json names it.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { readDocument } from '../../src/transfer/read/json.js';
import type { Incoming } from '../../src/transfer/read/types.js';
import { fileWith, readAll } from './readers.js';

const PIECE = 64 * 1024;
const HEAD = '{"formato":"cartelera","version":1,"exportado":"2026-01-01T00:00:00.000Z",';

const fileOf = (text: string) => fileWith('catalogo.json', text);
const all = (file: string) => readAll(readDocument, file);

const described = (entry: Incoming) => ('record' in entry ? [entry.place.position, entry.record] : [entry.place.position, 'problem' in entry ? entry.problem : entry.notice]);

describe('a JSON document read a piece at a time', () => {
  it('when an escape, a string and a number fall across the pieces of the file, then each record is read whole, in order, at its position', async () => {
    // After a byte-order mark (3 bytes), the first record's escaping backslash is the first piece's last byte.
    const start = `${HEAD}"categorias":[{"nombre":"Larga `;
    const long = 'x'.repeat(PIECE - 4 - start.length);
    const text = `\ufeff${start}${long}\\""},\n{"nombre":"Ñandú","id":7},{"nombre":"}]\\\\"} ,{"nombre":"Última"}\n],"peliculas":[],"nota":{"a":[1,{"b":"]"}]}}`;
    assert.equal(Buffer.from(text).indexOf('\\"'), PIECE - 1);
    assert.deepEqual((await all(fileOf(text))).map(described), [
      [1, { nombre: `Larga ${long}"` }],
      [2, { nombre: 'Ñandú', id: 7 }],
      [3, { nombre: '}]\\' }],
      [4, { nombre: 'Última' }],
    ]);
    // A number as a list's item, its digits on both sides of the first piece's end.
    const before = `${HEAD}"categorias":[`;
    const numbers = `${before}${' '.repeat(PIECE - before.length - 4)}12345678,{"nombre":"B"}]}`;
    assert.deepEqual((await all(fileOf(numbers))).map(described), [
      [1, 'not a JSON object'],
      [2, { nombre: 'B' }],
    ]);
  });

  it('when a number would round, then it stays the text it was, for validation to refuse', async () => {
    const read = await all(fileOf(`${HEAD}"peliculas":[{"titulo":"T","duracion":9007199254740993.5,"categoria_id":1e0}]}`));
    assert.deepEqual(read.map(described), [[1, { titulo: 'T', duracion: '9007199254740993.5', categoria_id: 1 }]]);
  });

  it('when the JSON is broken, then the reader names what stream-json names, after the records before it', async () => {
    const cases: [string, RegExp][] = [
      ['', /: not valid JSON \(Parser has expected a value\)$/],
      ['[{"nombre":"A"}]', /: not a cartelera document \(an object was expected\)$/],
      [`${HEAD}"categorias":[{"nombre":"A"},]}`, /: not valid JSON \(Parser cannot parse input: unexpected token '\]'\)$/],
      [`${HEAD}"categorias":[{"nombre":"A"} {"nombre":"B"}]}`, /: not valid JSON \(Parser cannot parse input: expected ','\)$/],
      [`${HEAD}"categorias":[{"nombre":"A"},{"nombre":tru}]}`, /: not valid JSON \(Parser cannot parse input: expected a value\)$/],
      [`${HEAD}"categorias":[{"nombre":"A"}]}}`, /: not valid JSON \(Parser cannot parse input: unexpected characters\)$/],
      [`${HEAD}"categorias":[{"nombre":"A"}`, /: not valid JSON \(Parser cannot parse input: expected ','\)$/],
    ];
    for (const [text, problem] of cases) {
      const read: Incoming[] = [];
      await assert.rejects(async () => {
        for await (const batch of readDocument(fileOf(text), () => {})) read.push(...batch);
      }, problem);
      assert.ok(read.length <= 1, `${text}: ${read.length} records`);
    }
  });

  it('when every record carries an image of half a megabyte and each batch takes a while to store, then the reader has read at most a piece beyond what it handed on', async () => {
    const record = JSON.stringify({ recurso: 'peliculas', clave: 1, alt: 'Un cartel', archivo_base64: 'A'.repeat(512 * 1024) });
    const file = fileOf(`${HEAD}"imagenes":[${Array(24).fill(record).join(',\n')}]}`);
    let read = 0;
    let taken = 0;
    for await (const batch of readDocument(file, (n) => (read += n))) {
      taken += batch.length;
      assert.equal(batch.length, 1, 'a batch ends after a record that carries a file');
      assert.ok(read <= HEAD.length + taken * (record.length + 2) + 2 * PIECE, `after ${taken} records, ${read} bytes read of ${statSync(file).size}`);
      // As an import does while it stores a batch: the file could be read on meanwhile, and must not be.
      await setTimeout(10);
    }
    assert.equal(taken, 24);
    assert.equal(read, statSync(file).size);
  });
});
