import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { LIST_CACHE_MAX_BYTES } from '../../src/cache/fullList.js';
import { buildTestApp, createCategoria, send } from '../helpers.js';
import { backend } from '../stores.js';

let app: FastifyInstance;
before(async () => {
  app = await buildTestApp();
});
after(() => app.close());

it(`when a whole list spans several pages beyond the cache limit, then every row is streamed (${backend})`, async () => {
  const { id } = await createCategoria(app);
  // ~5 KB a movie: the limit is passed within the first pages, and more pages follow it.
  const count = Math.ceil((LIST_CACHE_MAX_BYTES * 2) / 5000) + 1500;
  for (let done = 0; done < count; done += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - done) }, (_, i) =>
        send(app, 'POST', '/peliculas', { titulo: `Larga ${done + i}`, sipnosis: 'x'.repeat(4900), duracion: 90, categoria_id: id }),
      ),
    );
  }
  const res = await send(app, 'GET', '/peliculas');
  assert.equal(res.statusCode, 200);
  assert.ok(res.body.length > LIST_CACHE_MAX_BYTES * 2);
  const ids = res.json<{ id: number }[]>().map((p) => p.id);
  assert.equal(ids.length, count);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
});
