// Faults of the machine on PostgreSQL (the contract's section of that name), on a server of
// this file's own: its data folder on a disk that fills up (a small tmpfs, which needs root, as the
// suite runs), and the server stopped with -m immediate and started again, with writers running
// throughout.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cartelera } from '../cli/cli.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded-postgres.js';
import { counterIn, fillUp, whileWriting, type Writing } from '../faults.js';
import { seededRandom, seedFor } from '../random.js';
import type { Service } from '../service.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-pg-faults-');
// The server runs as the postgres user (as root, see embedded-postgres.ts), which must reach its data below.
chmodSync(dir, 0o755);
after(() => rmSync(dir, { recursive: true, force: true }));

const FULL = 'No hay espacio en el disco para guardar los cambios.';
const UNAVAILABLE = 'La base de datos no está disponible.';

/** `whileWriting` on the server `database`, which is removed afterwards. */
async function whileWritingOn(database: RunningPostgres, random: () => number, during: (service: Service, writing: Writing) => Promise<void>): Promise<void> {
  try {
    await whileWriting(database.url, random, during);
  } finally {
    await database.stop();
  }
}

describe('faults of the machine on PostgreSQL', () => {
  it('when the disk of its data fills up while writers run, then writes answer 503 and nothing refused is stored, and once space returns (and the server is started again if it stopped) writes are stored again', { timeout: 120000 }, async (t) => {
    const disk = join(dir, 'lleno');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', disk]);
    try {
      // 1 MB WAL segments: the full disk reaches the WAL after a few hundred writes, not thousands.
      const database = await startEmbeddedPostgres({ durability: 'production', under: disk, walSegmentMb: 1 });
      await whileWritingOn(database, seededRandom(seedFor(t)), async (service, { load, recovered }) => {
        load.refusing([FULL, UNAVAILABLE]);
        // A server that stops itself (a PANIC when its WAL cannot grow) cuts the writes in flight: their commit is unknown.
        load.doubting((_sent, details) => details === UNAVAILABLE);
        fillUp(join(disk, 'relleno'));
        await load.until((c) => c.refused + c.doubtful >= 30);

        rmSync(join(disk, 'relleno'));
        // Its supervisor's part: start it again if it stopped.
        const stopped = !database.running();
        t.diagnostic(stopped ? 'the server stopped itself; started again' : 'the server kept running');
        if (stopped) await database.resume();
        await recovered(t);
        const metrics = await (await fetch(`${service.base}/metrics`)).text();
        const refused = counterIn(metrics, 'db_refused_writes_total{cause="disk_full"}') + counterIn(metrics, 'db_refused_writes_total{cause="unavailable"}');
        assert.equal(refused, load.counts.refused + load.counts.doubtful, 'the metric counts every refused write');
        const check = await cartelera(['check'], database.url);
        assert.equal(check.code, 0, check.stderr);
      });
    } finally {
      execFileSync('umount', [disk]);
    }
  });

  it('when the server is stopped with -m immediate while writers run and started again, then writes answer 503 while it is down, every 2xx is stored, none refused after the stop is, and writes are stored again without a restart of the service', { timeout: 120000 }, async (t) => {
    const database = await startEmbeddedPostgres({ durability: 'production' });
    await whileWritingOn(database, seededRandom(seedFor(t)), async (_service, { load, recovered }) => {
      load.refusing([UNAVAILABLE]);
      // Writes sent before the server had died may have committed before it did, and then lost their
      // answer: no answer can tell. The server is dead only once its postmaster has exited (SIGQUIT
      // reaches its sessions first), so the doubt lasts until then, not from when the stop was asked.
      let died = Number.POSITIVE_INFINITY;
      load.doubting((sent, details) => details === UNAVAILABLE && sent <= died);
      await database.crash();
      died = Date.now();
      const refused = load.counts.refused;
      await load.until((c) => c.refused >= refused + 20);
      await database.resume();
      await recovered(t);
      const check = await cartelera(['check'], database.url);
      assert.equal(check.code, 0, check.stderr);
    });
  });
});
