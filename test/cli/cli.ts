import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { resources } from '../../src/resources/index.js';
import { buildTestApp } from '../helpers.js';
import { root } from '../service.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the `cartelera` command as a user would (the compiled program), on the store `url`. */
export async function cartelera(args: string[], url: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stdout, stderr };
}

/** The service on the store `url`, as npm start builds it, for reading what a store holds. */
export function appOn(url: string): Promise<FastifyInstance> {
  return buildTestApp({ DATABASE_URL: url });
}

/** Every list of the interface, as the service answers it: path → body. */
export async function everyList(url: string): Promise<Record<string, string>> {
  const app = await appOn(url);
  try {
    const lists: Record<string, string> = {};
    for (const { path } of resources) lists[path] = (await app.inject({ method: 'GET', url: path })).body;
    return lists;
  } finally {
    await app.close();
  }
}

/** A JSON document as export writes it, without the instant it was written. */
export const withoutInstant = (document: string) => document.replace(/"exportado":"[^"]*"/, '"exportado":""');
