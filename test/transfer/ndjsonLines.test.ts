// NDJSON is read a line at a time as the import asks for lines (src/transfer/read/json.ts): a line
// ends as readline ends one (\n, \r\n, a lone \r), wherever the file's 64 KiB pieces fall, and a
// file of images' originals is never read far ahead of what the import has taken.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { readNdjson } from '../../src/transfer/read/json.js';
import { fileWith, readAll } from './readers.js';

const PIECE = 64 * 1024;
const categoria = (nombre: string) => JSON.stringify({ recurso: 'categorias', registro: { nombre } });

const fileOf = (text: string) => fileWith('catalogo.ndjson', text);
const all = (file: string) => readAll(readNdjson, file);

describe('NDJSON read a line at a time', () => {
  it('when lines end in \\n, \\r\\n or a lone \\r, one of them split between two pieces of the file, then each line is one record at its line number', async () => {
    // The first line ends with \r\n across the first piece's end: its \r is the piece's last byte.
    const head = '{"recurso":"categorias","registro":{"nombre":"Larga"},"relleno":"';
    const first = head + 'x'.repeat(PIECE - 1 - head.length - 2) + '"}';
    assert.equal(Buffer.byteLength(first), PIECE - 1);
    const text = `${first}\r\n${categoria('Ñandú')}\n\n${categoria('Café')}\r${categoria('Última')}\r\n${categoria('Sin fin de línea')}`;
    const file = fileOf(text);
    const read = await all(file);
    assert.deepEqual(
      read.map((entry) => ('record' in entry ? [entry.place.line, entry.record.nombre] : [entry.place.line, 'problem' in entry ? entry.problem : entry.notice])),
      [[1, 'Larga'], [2, 'Ñandú'], [4, 'Café'], [5, 'Última'], [6, 'Sin fin de línea']],
    );
  });

  it('when every line carries an image of half a megabyte and each batch takes a while to store, then the reader has read at most the next line and a piece beyond what it handed on', async () => {
    const line = JSON.stringify({ recurso: 'imagenes', registro: { recurso: 'peliculas', clave: 1, alt: 'Un cartel', archivo_base64: 'A'.repeat(512 * 1024) } });
    const file = fileOf(`${line}\n`.repeat(24));
    let read = 0;
    const batches = readNdjson(file, (n) => (read += n));
    let taken = 0;
    for await (const batch of batches) {
      taken += batch.length;
      assert.equal(batch.length, 1, 'a batch ends after a record that carries a file');
      assert.ok(read <= taken * (line.length + 1) + line.length + 2 * PIECE, `after ${taken} lines, ${read} bytes read of ${statSync(file).size}`);
      // As an import does while it stores a batch: the file could be read on meanwhile, and must not be.
      await setTimeout(10);
    }
    assert.equal(taken, 24);
    assert.equal(read, statSync(file).size);
  });
});
