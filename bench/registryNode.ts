import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/** A peer the bench installs for itself: not among the project's dependencies (heavy, and only the bench needs it). */
export interface BenchInstall {
  /** Its folder under `.bench/`. */
  folder: string;
  /** What npm installs, with its version: `directus@11.3.5`. */
  spec: string;
  /** The folder's package.json `allowScripts`: the install scripts npm may run. */
  allowScripts: Record<string, boolean>;
  /** Code run with `node` in the folder once installed: it fails when a native module did not build. */
  check: string;
}

/**
 * Installs `peer` into `.bench/<folder>` for `node` (a registry Node.js), once: inside the repository
 * (so a second run reuses it) and git-ignored. A stamp holding the version is written last, so an
 * interrupted install is redone, not reused. Native modules build against `node`'s own headers
 * (npm's user config may name others). Answers the folder.
 */
export function installForBench(root: string, node: string, peer: BenchInstall): string {
  const dir = join(root, '.bench', peer.folder);
  const stamp = join(dir, 'installed-version');
  const version = `${peer.spec} ${node}`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version) return dir;

  console.log(`Installing ${peer.spec} into .bench/${peer.folder} (once; it takes a few minutes)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, allowScripts: peer.allowScripts }, null, 2)}\n`);
  // The npm registry's node package keeps the binary's headers in its platform package.
  const installed = dirname(dirname(realpathSync(node)));
  const nodeDir = [installed, join(installed, 'node_modules', `node-${process.platform}-${process.arch}`)].find((d) => existsSync(join(d, 'include', 'node', 'node_version.h')));
  if (!nodeDir) throw new Error(`no headers found for ${node}, to build ${peer.spec}'s native modules against`);
  const install = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `--nodedir=${nodeDir}`, peer.spec], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` },
  });
  if (install.status !== 0) throw new Error(`npm install of ${peer.spec} failed (${install.error?.message ?? `exit ${install.status}`})`);
  // An install whose build was skipped or failed would only show at start, or at the first request.
  const loads = spawnSync(node, ['-e', peer.check], { cwd: dir, encoding: 'utf8' });
  if (loads.status !== 0) throw new Error(`${peer.spec} installed, but its native modules do not load:\n${loads.stderr}`);
  writeFileSync(stamp, `${version}\n`);
  return dir;
}
