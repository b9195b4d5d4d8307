// Faults of the machine on SQLite (the contract's section of that name): a disk that fills up and
// a file system that turns read-only, with writers running throughout. Both need root (mount); the
// suite runs as root, as CI does, and run otherwise these tests fail with mount's refusal.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { cartelera } from '../cli/cli.js';
import { counterIn, fillUp, whileWriting } from '../faults.js';
import { holdEveryUploadSlot, upload as multipart } from '../api/uploads.js';
import { assertError, buildTestApp, createPelicula } from '../helpers.js';
import { seededRandom, seedFor } from '../random.js';
import { logLines, startService, type Service } from '../service.js';
import { tempDir } from '../tempDir.js';

const dir = tempDir('cartelera-faults-');
after(() => rmSync(dir, { recursive: true, force: true }));

const FULL = 'No hay espacio en el disco para guardar los cambios.';
const READ_ONLY = 'El almacenamiento no admite escrituras.';

/** What the service answers and what a store opened afresh holds, list by list and record by record: no cache kept an answer the store does not hold. */
async function answersMatchStore(service: Service, url: string): Promise<void> {
  const fresh = await buildTestApp({ DATABASE_URL: url });
  try {
    for (const path of ['/categorias?_limit=1000', '/cambios?_limit=1000']) {
      const served = await (await fetch(service.base + path)).text();
      assert.equal(served, (await fresh.inject(path)).body, `${path}: the service's answer is the store's`);
    }
  } finally {
    await fresh.close();
  }
}

function messagesOf(service: Service, msg: string): Record<string, unknown>[] {
  return logLines(service.output()).filter((l) => l.msg === msg);
}

describe('faults of the machine on SQLite', () => {
  it('when the disk fills up while writers run, then writes answer 503 with the disk-full sentence and nothing of them is stored, reads go on, the feed and caches stay right, and the first write after space returns is stored', { timeout: 60000 }, async (t) => {
    const disk = join(dir, 'lleno');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk]);
    const url = `sqlite:${join(disk, 'catalogo.sqlite')}`;
    try {
      await whileWriting(url, seededRandom(seedFor(t)), async (service, { load, recovered }) => {
        // Every byte left taken: the store's next page has nowhere to go.
        load.refusing([FULL]);
        fillUp(join(disk, 'relleno'));
        await load.until((c) => c.refused >= 30);
        const reads = load.counts.reads;
        await load.until((c) => c.reads >= reads + 5);

        rmSync(join(disk, 'relleno'));
        await recovered(t);
        await answersMatchStore(service, url);
        const metrics = await (await fetch(`${service.base}/metrics`)).text();
        assert.equal(counterIn(metrics, 'db_refused_writes_total{cause="disk_full"}'), load.counts.refused, 'the metric counts every refused write');
        const stopped = messagesOf(service, 'writes stopped: the store refuses them');
        const resumed = messagesOf(service, 'writes resumed');
        assert.ok(stopped.length >= 1 && stopped.length === resumed.length, `stopped ${stopped.length}, resumed ${resumed.length}`);
        // A write that still fits may succeed in between; the log still speaks of episodes, not requests.
        assert.ok(stopped.length * 5 <= load.counts.refused, `the log said "writes stopped" ${stopped.length} times for ${load.counts.refused} refusals`);
        assert.equal(stopped[0]?.fault, 'disk_full');
        assert.equal(await service.stop(), 0);
      });
      const check = await cartelera(['check'], url);
      assert.equal(check.code, 0, check.stderr);
    } finally {
      execFileSync('umount', [disk]);
    }
  });

  it('when the store is on a full disk, then import and migrate exit 1 with one sentence saying so and store nothing; and a backup onto a full disk leaves no file', { timeout: 60000 }, async () => {
    const disk = join(dir, 'lleno-cli');
    mkdirSync(disk);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
    try {
      const url = `sqlite:${join(disk, 'catalogo.sqlite')}`;
      assert.equal((await cartelera(['seed'], url)).code, 0);
      const seeded = (await cartelera(['check'], url)).stdout;
      const file = join(dir, 'muchas.ndjson');
      writeFileSync(file, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ recurso: 'categorias', registro: { nombre: `Categoría importada número ${i}` } })).join('\n'));
      const store = `cartelera: store ${url}\n`;
      const full = "cartelera: the store's disk is full; free some space and run the command again\n";
      // Room to open the store and begin, not to hold the import: the disk fills up halfway through it.
      fillUp(join(disk, 'relleno'), 256 * 1024);
      for (let run = 0; run < 3; run++) {
        const imported = await cartelera(['import', file], url);
        assert.equal(imported.code, 1, imported.stderr);
        assert.equal(imported.stderr, store + full);
      }
      // No room even to open it.
      fillUp(join(disk, 'relleno'));
      const imported = await cartelera(['import', file], url);
      assert.equal(imported.stderr, store + full);
      const migrated = await cartelera(['migrate'], url);
      assert.equal(migrated.code, 1, migrated.stderr);
      assert.equal(migrated.stderr, store + full);
      // A backup of a store elsewhere, onto the full disk: nothing under the name asked for, nor beside it.
      const healthy = `sqlite:${join(dir, 'sano.sqlite')}`;
      assert.equal((await cartelera(['seed'], healthy)).code, 0);
      const copy = join(disk, 'copia.sqlite');
      const backup = await cartelera(['backup', copy], healthy);
      assert.equal(backup.code, 1, backup.stderr);
      assert.equal(backup.stderr.split('\n').at(-2), `cartelera: ${copy}: not written (no space left on device); nothing was left under that name`);
      assert.deepEqual(readdirSync(disk).filter((f) => f.startsWith('copia') || f.startsWith('.copia')), [], 'no backup file, whole or partial');

      rmSync(join(disk, 'relleno'));
      const check = await cartelera(['check'], url);
      assert.equal(check.code, 0, check.stderr);
      assert.equal(check.stdout, seeded, 'the demo catalogue alone: none of the import was stored');
    } finally {
      execFileSync('umount', [disk]);
    }
  });

  it('when the file system turns read-only while writers run, then writes answer 503 with the read-only sentence while reads go on; after the repair every write answered 2xx is there and none answered 503', { timeout: 60000 }, async (t) => {
    // A real ext4 file system on a loop device, mounted to turn read-only on an error, as servers' are.
    const image = join(dir, 'ext4.img');
    const disk = join(dir, 'ext4');
    mkdirSync(disk);
    execFileSync('truncate', ['-s', '16M', image]);
    execFileSync('mkfs.ext4', ['-q', '-F', image]);
    const mount = () => execFileSync('mount', ['-o', 'loop,errors=remount-ro', image, disk]);
    mount();
    let mounted = true;
    const url = `sqlite:${join(disk, 'catalogo.sqlite')}`;
    let restarted: Service | undefined;
    try {
      let holdTo: () => Promise<void> = async () => {};
      await whileWriting(url, seededRandom(seedFor(t)), async (service, writing) => {
        const { load } = writing;
        holdTo = writing.holdTo;
        // An error of the file system, as the kernel meets one: ext4 turns itself read-only at once.
        load.refusing([READ_ONLY]);
        // A commit SQLite was syncing when it struck fails, yet its pages may have reached the disk:
        // after the repair it may be there, whole. The writes sent later are refused for certain.
        const failing = Date.now();
        load.doubting((sent) => sent <= failing);
        t.diagnostic(`the file system failed at ${failing}`);
        const device = basename(execFileSync('findmnt', ['-no', 'SOURCE', disk], { encoding: 'utf8' }).trim());
        writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, 'cartelera fault test');
        await load.until((c) => c.refused >= 30);
        const reads = load.counts.reads;
        await load.until((c) => c.reads >= reads + 5);
        await load.stop();
        t.diagnostic(`writes: ${JSON.stringify(load.counts)}`);

        // What the service delivered and answered is what it committed, while it still runs.
        await writing.feedDeliveredCommitted();
        await answersMatchStore(service, url);
        const metrics = await (await fetch(`${service.base}/metrics`)).text();
        assert.equal(counterIn(metrics, 'db_refused_writes_total{cause="read_only"}'), load.counts.refused + load.counts.doubtful, 'the metric counts every refused write');
        assert.equal(messagesOf(service, 'writes stopped: the store refuses them').length, 1, 'said once, not per request');
        await service.stop();
      });

      // The command line on the read-only store, before the repair: one sentence, nothing stored.
      const file = join(dir, 'solo-lectura.ndjson');
      writeFileSync(file, JSON.stringify({ recurso: 'categorias', registro: { nombre: 'No se guarda' } }));
      const imported = await cartelera(['import', file], url);
      assert.equal(imported.code, 1, imported.stderr);
      assert.equal(imported.stderr, `cartelera: store ${url}\ncartelera: the store is read-only: its file system refuses writes\n`);

      // The repair, as an operator makes it: unmounted, checked, mounted again.
      execFileSync('umount', [disk]);
      mounted = false;
      const repair = spawnSync('e2fsck', ['-fy', image], { encoding: 'utf8' });
      assert.ok(repair.status === 0 || repair.status === 1, `e2fsck: ${repair.status} ${repair.stdout}`);
      mount();
      mounted = true;
      await holdTo();
      const check = await cartelera(['check'], url);
      assert.equal(check.code, 0, check.stderr);

      // Started again on the repaired store, the service takes the first write.
      restarted = await startService({ DATABASE_URL: url });
      await restarted.healthy();
      const first = await fetch(`${restarted.base}/categorias`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ nombre: 'Tras la reparación' }) });
      assert.equal(first.status, 201, await first.text());
    } finally {
      await restarted?.stop('SIGKILL');
      if (mounted) execFileSync('umount', [disk]);
    }
  });

  it('when every upload slot is taken and the temporary folder is full, then a waiting upload answers 503 with the disk-full sentence and stores nothing; where no temporary file can be made (a read-only folder), it waits with its body unread and is stored in its turn', { timeout: 60000 }, async () => {
    const temporary = join(dir, 'temporal');
    mkdirSync(temporary);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', temporary]);
    const systemTemporary = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    const app = await buildTestApp();
    try {
      const movie = await createPelicula(app);
      const fields = { recurso: 'peliculas', clave: movie.id };
      // An uncompressed PNG of about 1 MB: more than the buffers between a client and the route hold, and than the folder has room for.
      const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#204080' } }).png({ compressionLevel: 0 }).toBuffer();
      const waiting = async (alt: string) => app.inject({ method: 'POST', url: '/imagenes', ...(await multipart([{ name: 'foto.png', bytes: png }], { ...fields, alt })) });

      const slots = await holdEveryUploadSlot(app, fields, png);
      fillUp(join(temporary, 'relleno'));
      const refused = await waiting('sin sitio');
      assertError(refused, 503, { details: FULL });
      assert.equal(refused.headers['retry-after'], '1');
      const uploadsWaiting = () => readdirSync(temporary).filter((name) => name.startsWith('cartelera-upload-'));
      assert.deepEqual(uploadsWaiting(), [], 'its temporary file is removed');

      rmSync(join(temporary, 'relleno'));
      execFileSync('mount', ['-o', 'remount,ro', temporary]);
      const unread = waiting('en espera');
      assert.deepEqual(await slots.release(), Array.from({ length: slots.count }, () => 201));
      assert.equal((await unread).statusCode, 201, (await unread).body);
      const stored = (await app.inject(`/imagenes?recurso=peliculas&clave=${movie.id}`)).json<{ alt: string }[]>().map((i) => i.alt);
      assert.equal(stored.length, slots.count + 1);
      assert.ok(stored.includes('en espera') && !stored.includes('sin sitio'), stored.join(', '));
      assert.deepEqual(uploadsWaiting(), []);
    } finally {
      if (systemTemporary === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = systemTemporary;
      // Writable again, for the service's own folders there to be removed as it closes.
      execFileSync('mount', ['-o', 'remount,rw', temporary]);
      await app.close();
      execFileSync('umount', [temporary]);
    }
  });
});
