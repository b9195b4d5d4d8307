import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './embedded-postgres.js';

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface Service {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves when its output matches, or fails after `ms`. */
  printed(pattern: RegExp, ms?: number): Promise<void>;
  /** Resolves when /health answers 200, or fails after `ms`. */
  healthy(ms?: number): Promise<void>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * What `npm start` gives node (its flags and the script), read from package.json so the two cannot
 * differ: this checkout's, or the one in `folder` (another commit's, bench/targets.ts's baseline).
 */
export function startArguments(folder = root): string[] {
  const { scripts } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const command = /^exec node (.+)$/.exec(scripts.start);
  if (!command?.[1]) throw new Error(`package.json's start script is not "exec node …": ${scripts.start}`);
  return command[1].split(/\s+/);
}

/** Runs `npm start` exactly as a user would, with `env` added to this process's environment. */
export function npmStart(env: NodeJS.ProcessEnv): Promise<Service> {
  return launch('npm', ['start'], env);
}

/**
 * Runs what `npm start` runs, on the Node.js running the tests rather than the one npm would
 * pick: the suite runs on each supported Node.js in turn, and so must the services it starts.
 */
export function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  return launch(process.execPath, startArguments(), env);
}

async function launch(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Service> {
  const port = await freePort();
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a SIGKILL, which npm cannot pass on, reaches the server too.
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');

  async function until(what: string, ms: number, done: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await done()) return;
      if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}) before ${what}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${command}: no ${what} within ${ms} ms:\n${output}`);
  }

  return {
    child,
    base,
    output: () => output,
    printed: (pattern, ms = 15000) => until(`output matching ${pattern}`, ms, async () => pattern.test(output)),
    healthy: (ms = 15000) =>
      until('healthy /health', ms, () => fetch(`${base}/health`).then((r) => r.ok, () => false)),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        // Other signals go to npm alone, as an operator's would; npm passes them on and exits with the server's code.
        if (signal === 'SIGKILL') process.kill(-child.pid, signal);
        else child.kill(signal);
      }
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/** The JSON log lines a service printed. */
export function logLines(output: string): Record<string, unknown>[] {
  return output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}
