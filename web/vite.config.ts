import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Writes `.br` and `.gz` beside every text file of the build, which the service sends to browsers that take them. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cartelera-precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|html|svg|json)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const content = await readFile(path);
          const br = await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
          await writeFile(`${path}.br`, br);
          await writeFile(`${path}.gz`, await gzipped(content, { level: 9 }));
        }),
      );
    },
  };
}

// The admin is served by the service at /admin/ (src/admin.ts); relative URLs keep it movable.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // No React plugin: Vite's own transformer compiles TSX, and the build needs no fast refresh.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The service sends a Content-Security-Policy without data: URLs.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // One chunk of about 1.1 MB (under 300 KB brotli): the budget is on what is transferred, 600 KB.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // MUI marks its modules 'use client', which means nothing outside React Server Components.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  plugins: [precompress()],
});
