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
