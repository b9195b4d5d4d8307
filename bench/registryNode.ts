import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The binary of Node.js `version`, from the npm registry's node package (fetched once by npm exec). */
export function registryNode(root: string, version: string): string {
  const found = spawnSync('npm', ['exec', '--yes', `--package=node@${version}`, '--', 'node', '-p', 'process.execPath'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (found.status !== 0) throw new Error(`npm exec node@${version} failed (exit ${found.status})`);
  return found.stdout.trim();
}

/** The Node.js 24 that `npm run test:node24` uses (package.json's config.node24). */
export function node24(root: string): string {
  const { config } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { config: { node24: string } };
  return registryNode(root, config.node24);
}
