import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** A multipart upload as a browser's FormData sends it: `fields` first, then each file in an `archivo` part unless named. */
export async function upload(files: { name: string; bytes: Buffer | string; part?: string }[], fields: Record<string, unknown> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const f of files) form.append(f.part ?? 'archivo', new Blob([f.bytes]), f.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { headers: { 'content-type': request.headers.get('content-type') ?? '' }, payload: Buffer.from(await request.arrayBuffer()) };
}

/** `POST /importar<query>` with these files, as the admin's import page sends them. */
export async function importar(app: FastifyInstance, query: string, files: Parameters<typeof upload>[0], headers: Record<string, string> = {}) {
  const body = await upload(files);
  return app.inject({ method: 'POST', url: `/importar${query}`, headers: { ...body.headers, ...headers }, payload: body.payload });
}

/**
 * Takes every upload slot of `app` (twice as many as cores) with an image upload of `file` for
 * `fields` whose last bytes are kept back: the uploads after them wait their turn. `release` sends
 * those bytes and resolves with the held uploads' statuses. Injected, they have no request clock.
 */
export async function holdEveryUploadSlot(app: FastifyInstance, fields: Record<string, unknown>, file: Buffer) {
  const holders = Array.from({ length: 2 * availableParallelism() }, () => new PassThrough());
  const held = await Promise.all(holders.map(async (holder, n) => {
    const { headers, payload } = await upload([{ name: 'foto.bin', bytes: file }], { ...fields, alt: `retenida ${n}` });
    const answer = app.inject({ method: 'POST', url: '/imagenes', headers, payload: holder });
    // It drains only as its route reads it, which it does in its slot.
    if (!holder.write(payload.subarray(0, -64))) await once(holder, 'drain');
    return { answer, tail: payload.subarray(-64) };
  }));
  return {
    count: holders.length,
    async release(): Promise<number[]> {
      for (const [n, { tail }] of held.entries()) holders[n]?.end(tail);
      return (await Promise.all(held.map((h) => h.answer))).map((r) => r.statusCode);
    },
  };
}
