import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { pruneChanges } from '../../src/changes/retention.js';
import { judgeImage } from '../../src/images/judge.js';
import { categorias, peliculas } from '../../src/resources/index.js';
import { createImage, removeImage } from '../../src/resources/imageWrites.js';
import { createRecord } from '../../src/resources/writes.js';
import { checkStore } from '../../src/transfer/check.js';
import { backend, withMigratedStore } from '../stores.js';

// An image's original: kept while the image or a change refers to it, and checked against its digest.

const OLD = '2020-01-01T00:00:00.000+00:00';

describe(`image files (${backend})`, () => {
  it('when a deleted image\'s changes are pruned, then retention removes its file, and not before', async () => {
    await withMigratedStore(async ({ db }) => {
      const context = { quien: 'prueba' };
      const categoria = await createRecord(db, categorias, { nombre: 'Drama' }, context);
      const movie = await createRecord(db, peliculas, { titulo: 'Roma', sipnosis: 'x', duracion: 90, categoria_id: categoria.id }, context);
      const original = await judgeImage(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer(), 1000);
      const kept = await createImage(db, { recurso: 'peliculas', clave: movie.id, alt: 'queda' }, original, context);
      const gone = await createImage(db, { recurso: 'peliculas', clave: movie.id, alt: 'se va' }, original, context);
      assert.ok(await removeImage(db, gone.id as number, context));
      const files = async () => (await db.selectFrom('imagen_archivos').select('imagen_id').orderBy('imagen_id').execute()).map((f) => f.imagen_id);
      assert.equal(await pruneChanges(db, 365), 0);
      assert.deepEqual(await files(), [kept.id, gone.id], 'the log still refers to the deleted image: an undo could bring it back');
      await db.updateTable('cambios').set({ cuando: OLD }).execute();
      assert.ok((await pruneChanges(db, 365)) > 0);
      assert.deepEqual(await files(), [kept.id]);
      assert.deepEqual((await checkStore(db)).problems, []);
    });
  });

  it('when a stored file no longer matches its digest, then check names the image', async () => {
    await withMigratedStore(async ({ db }) => {
      const context = { quien: 'prueba' };
      const categoria = await createRecord(db, categorias, { nombre: 'Drama' }, context);
      const movie = await createRecord(db, peliculas, { titulo: 'Roma', sipnosis: 'x', duracion: 90, categoria_id: categoria.id }, context);
      const original = await judgeImage(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#654321' } }).jpeg().toBuffer(), 1000);
      const image = await createImage(db, { recurso: 'peliculas', clave: movie.id, alt: 'x' }, original, context);
      assert.deepEqual((await checkStore(db)).problems, []);
      const damaged = Buffer.from(original.datos);
      damaged[damaged.length - 3] = (damaged[damaged.length - 3] ?? 0) ^ 0xff;
      await db.updateTable('imagen_archivos').set({ datos: damaged }).execute();
      assert.deepEqual((await checkStore(db)).problems, [`imagenes ${String(image.id)}: its file does not match its SHA-256`]);
    });
  });
});
