import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build` puts the admin (web/vite.config.ts): the same path from src/ and dist/. */
const BUILT = fileURLToPath(new URL('../web/dist/', import.meta.url));

/**
 * The admin's Content-Security-Policy: its scripts, styles, icons and API calls all come from this
 * service; nothing is evaluated, framed or posted elsewhere. MUI's styles (Emotion) are added at run
 * time through the CSSOM, into empty <style> elements: the one hash allowed is the empty text's.
 */
export const ADMIN_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"],
  'img-src': ["'self'"],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
};

/** The admin's routes, by their route url: `/admin`, `/admin/`, `/admin/*`. */
export const isAdmin = (url: string | undefined) => url !== undefined && (url === '/admin' || url.startsWith('/admin/'));

/** Vite names every file of assets/ by a hash of its content: they never change, so browsers keep them for a year. */
const isHashed = (path: string) => /[\\/]assets[\\/]/.test(path);

/**
 * The browser admin (web/), built by `npm run build`, at /admin/; `/` leads there. Files are sent
 * precompressed (.br, .gz) to browsers that take them. Neither route is part of the API's description.
 */
export async function adminPages(app: FastifyInstance): Promise<void> {
  for (const url of ['/', '/admin']) app.get(url, { schema: { hide: true } }, (_request, reply) => reply.redirect('/admin/'));
  if (!existsSync(`${BUILT}index.html`)) {
    app.log.warn({ folder: BUILT }, 'the admin is not built (npm run build): /admin/ answers 404');
    return;
  }
  await app.register(fastifyStatic, {
    root: BUILT,
    prefix: '/admin/',
    preCompressed: true,
    cacheControl: false,
    setHeaders(response, path) {
      // index.html names the hashed files of the current build: browsers must check it every time.
      response.setHeader('cache-control', isHashed(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      response.setHeader('vary', 'accept-encoding');
    },
  });
}
