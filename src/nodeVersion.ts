import { readFileSync } from 'node:fs';
import module from 'node:module';

/**
 * Stops, with a sentence, a process started on a Node.js older than package.json's `engines`
 * allows, before anything that needs a newer one is loaded (the SQLite binary crashes an old
 * Node.js). The entries (server.ts, cli/main.ts) call it first, then import the real program.
 * Written for old Node.js: no syntax or module newer than ES modules themselves.
 */
export function refuseOldNode(): void {
  // From src/ and dist/ alike, package.json is one folder up.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  const majors = (pkg.engines.node.match(/\d+(?=\.\d+\.\d+)/g) || []).map(Number);
  const running = Number(process.versions.node.split('.')[0]);
  if (majors.length === 0 || running >= Math.min(...majors)) return;
  const wanted = majors.length === 1 ? String(majors[0]) : `${majors.slice(0, -1).join(', ')} or ${majors[majors.length - 1]}`;
  process.stderr.write(
    `cartelera needs Node.js ${wanted}; this is Node.js ${process.versions.node}.\n` +
      'Run it with npm start (the service) or npm run cartelera -- <command>: they use the Node.js the project installs (npm ci).\n',
  );
  process.exit(1);
}

/**
 * Keeps the compiled code of every module the process loads in Node.js's compile cache (a folder
 * `node-compile-cache` under the OS temp folder, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
 * turns it off), so that the next start of the service or of a command does not compile its
 * thousand modules again: a command starts about a tenth sooner. The entries call it once the
 * Node.js is known to have it (refuseOldNode).
 */
export function cacheCompiledCode(): void {
  module.enableCompileCache();
}
