/**
 * Images under load, part of `npm run bench`, on the service as deployed (SQLite): a kept rendition
 * (a poster at 320 px as WebP) against lookups by title; new renditions of a 12-megapixel JPEG
 * against the same renditions made by sharp alone in a bare process on the same CPU; lookups by
 * title while renditions are made; and the server's peak RSS while one ~20 MiB image is uploaded,
 * then 20 at once; and Directus's `/assets` transform of the same picture, box and format. Writes its section of docs/performance.md; runs alone too (`node --import tsx
 * bench/images.ts` after `npm run build`). Env: BENCH_IMAGES_SECONDS (default 10), BENCH_IMAGES_QUIET (the
 * longest wait, in seconds, for a quiet machine before each scenario; default QUIET_WAIT_S),
 * BENCH_IMAGES_DIRECTUS=0 (leaves Directus out: its row then says so).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { QUIET_WAIT_S, untilQuiet, watchCpu } from './cpu.js';
import { statusBytes, watchPeakRss } from './memory.js';
import { pinned, pinSelf, runExitTasks } from './process.js';
import { utcMinute, writeSection } from './report.js';
import { root, startTarget } from './targets.js';
import { DIRECTUS_VERSION, startDirectus, uploadToDirectus } from './directus.js';
import { freePort } from '../test/embedded-postgres.js';
import { ensureWrk, runWrk, type WrkSummary } from './wrk.js';

const SECONDS = Number(process.env.BENCH_IMAGES_SECONDS || 10);
const QUIET_S = Number(process.env.BENCH_IMAGES_QUIET || QUIET_WAIT_S);
const WITH_DIRECTUS = process.env.BENCH_IMAGES_DIRECTUS !== '0';
const DOC = join(root, 'docs/performance.md');
const START = '<!-- images: written by bench/images.ts -->';
const END = '<!-- end of images -->';
/** Renditions asked for at once, by the service's clients and by the bare process alike. */
const PARALLEL = 4;
const MB = 1024 * 1024;

// Fixed sequences, so that every run makes the same pictures: a linear congruential generator.
let state = 20_261_127;
const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
function noise(bytes: number): Buffer {
  const raw = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) raw[i] = (random() * 256) | 0;
  return raw;
}

/** A 4000×3000 photograph-like JPEG: a gradient with a little grain. */
async function photo(): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  const grain = await sharp(noise(400 * 300 * 3), { raw: { width: 400, height: 300, channels: 3 } }).resize(width, height).raw().toBuffer();
  const gradient = await sharp({ create: { width, height, channels: 3, background: '#2a6fb0' } })
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return gradient;
}

/** Noise in a JPEG at quality 100: about 20 MiB that no encoder can shrink (4000×3650, just under IMAGE_MAX_BYTES). */
const heavy = async () => sharp(noise(4000 * 3650 * 3), { raw: { width: 4000, height: 3650, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();

async function upload(base: string, clave: number, file: Buffer): Promise<{ id: number }> {
  const body = new FormData();
  body.append('recurso', 'peliculas');
  body.append('clave', String(clave));
  body.append('alt', 'Afiche');
  body.append('archivo', new Blob([file]), 'afiche.jpg');
  const res = await fetch(`${base}/imagenes`, { method: 'POST', body });
  const json = (await res.json()) as { id: number };
  if (res.status !== 201) throw new Error(`POST /imagenes: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Distinct renditions (none kept yet): every box of the smaller sizes, both fits, WebP and JPEG, in a fixed shuffled order. */
function renditions(): { ancho: number; alto: number; ajuste: string; formato: string }[] {
  const sizes = [64, 128, 256, 320, 480, 640];
  const all = sizes.flatMap((ancho) => sizes.flatMap((alto) => ['cubrir', 'contener'].flatMap((ajuste) => ['webp', 'jpeg'].map((formato) => ({ ancho, alto, ajuste, formato })))));
  return all.map((w) => ({ w, k: random() })).sort((a, b) => a.k - b.k).map(({ w }) => w);
}

/** Asks for `urls`, PARALLEL at a time, until they are done or `until` says stop: how many, and the seconds taken. */
async function ask(base: string, urls: string[], until: () => boolean = () => false): Promise<{ made: number; seconds: number }> {
  let next = 0;
  let made = 0;
  const started = performance.now();
  const worker = async () => {
    for (let n = next++; n < urls.length && !until(); n = next++) {
      const res = await fetch(`${base}${urls[n]}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${urls[n]}: ${res.status}`);
      made++;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { made, seconds: (performance.now() - started) / 1000 };
}

/**
 * The same renditions made by sharp alone (the service's own render, no HTTP, no store) in a bare
 * process pinned as the server is, its libvips threads at the server's encoders' priority: their
 * rate, and the CPU seconds the process used for them.
 */
async function bare(file: string, wanted: object[]): Promise<{ rate: number; cpuS: number }> {
  const script = `
    import { readFileSync } from 'node:fs';
    import sharp from 'sharp';
    import { render } from './dist/images/renditions.js';
    import { lowerEncoderPriority } from './dist/images/priority.js';
    const datos = readFileSync(process.argv[1]);
    const { width, height } = await sharp(datos).metadata();
    const wanted = JSON.parse(process.argv[2]);
    const source = { datos, ancho: width, alto: height, foco_x: 50, foco_y: 50, digest: '' };
    let next = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(Array.from({ length: ${PARALLEL} }, async () => {
      for (let n = next++; n < wanted.length; n = next++) {
        await render(source, wanted[n], true);
        lowerEncoderPriority();
      }
    }));
    const { user, system } = process.cpuUsage(cpu);
    console.log((performance.now() - started) / 1000, (user + system) / 1e6);`;
  const [command = '', ...args] = pinned(0, [process.execPath, '--input-type=module', '-e', script, file, JSON.stringify(wanted)]);
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the bare sharp process failed (exit ${code})`);
  const [seconds = NaN, cpuS = NaN] = output.trim().split(' ').map(Number);
  return { rate: wanted.length / seconds, cpuS };
}

const rate = (w: WrkSummary) => w.requests / (w.duration_us / 1e6);
const verdict = (ok: boolean) => (ok ? 'met' : 'not met');

ensureWrk();
// This process asks for the renditions: on wrk's CPU, not the server's, where it would take the encoders' time.
pinSelf(1);
const dir = mkdtempSync(join(tmpdir(), 'cartelera-bench-images-'));
try {
  const target = await startTarget('cartelera-sqlite', dir, 1000);
  try {
    const base = target.server.base;
    const ids = await target.seed(8);
    const idsFile = join(dir, 'ids.txt');
    writeFileSync(idsFile, `${ids.join('\n')}\n`);
    const original = await photo();
    const originalFile = join(dir, 'photo.jpg');
    writeFileSync(originalFile, original);
    const poster = await upload(base, ids[0] ?? 1, original);
    const kept = `/imagenes/${poster.id}/archivo?ancho=320&formato=webp`;
    await ask(base, [kept]);
    const keptFile = join(dir, 'kept.txt');
    writeFileSync(keptFile, `${kept}\n`);
    const { lookup, page, categoryField, collections, update } = target.dialect;
    const luaArgs = [lookup, page, categoryField, idsFile, collections, update];

    await untilQuiet(QUIET_S);
    await runWrk('lookup', base, 3, luaArgs);
    const lookups = await runWrk('lookup', base, SECONDS, luaArgs);
    await runWrk('whatsOn', base, 3, [...luaArgs, keptFile]);
    const keptRun = await runWrk('whatsOn', base, SECONDS, [...luaArgs, keptFile]);
    console.log(`lookups ${rate(lookups).toFixed(0)}/s, kept rendition ${rate(keptRun).toFixed(0)}/s`);

    // New renditions: kept renditions are keyed by the image's id, so those of an image uploaded anew are all new.
    const wanted = renditions();
    const fresh = await upload(base, ids[1] ?? 1, original);
    const urls = wanted.map((w) => `/imagenes/${fresh.id}/archivo?ancho=${w.ancho}&alto=${w.alto}&ajuste=${w.ajuste}&formato=${w.formato}`);
    const sample = 24;
    await untilQuiet(QUIET_S);
    const servedCpu = watchCpu(target.server.pid);
    const served = await ask(base, urls.slice(0, sample));
    const servedUse = servedCpu.stop(0);
    const alone = await bare(originalFile, wanted.slice(0, sample));
    const sharpRate = alone.rate;
    const servedRate = served.made / served.seconds;
    // CPU milliseconds a rendition cost, each side: steadier than the rates on a shared machine.
    const servedMs = (servedUse.server * served.seconds * 1000) / served.made;
    const aloneMs = (alone.cpuS * 1000) / sample;
    console.log(`new renditions: served ${servedRate.toFixed(2)}/s (${servedMs.toFixed(0)} ms CPU each), sharp alone ${sharpRate.toFixed(2)}/s (${aloneMs.toFixed(0)} ms)`);

    // Lookups while renditions are made at full speed (the rest of the distinct renditions, then more images).
    await untilQuiet(QUIET_S);
    let busy = true;
    const more = await upload(base, ids[2] ?? 1, original);
    const background = ask(base, [...urls.slice(sample), ...wanted.map((w) => `/imagenes/${more.id}/archivo?ancho=${w.ancho}&alto=${w.alto}&ajuste=${w.ajuste}&formato=${w.formato}`)], () => !busy);
    const loaded = await runWrk('lookup', base, SECONDS, luaArgs);
    busy = false;
    const alongside = await background;
    console.log(`lookups beside rendering ${rate(loaded).toFixed(0)}/s (${alongside.made} renditions)`);

    // Memory: one ~20 MiB upload, then 20 at once.
    const big = await heavy();
    await untilQuiet(QUIET_S);
    const before = statusBytes(target.server.pid, 'VmRSS');
    let watch = watchPeakRss(target.server.pid);
    await upload(base, ids[3] ?? 1, big);
    const onePeak = watch.stop();
    const beforeMany = statusBytes(target.server.pid, 'VmRSS');
    watch = watchPeakRss(target.server.pid);
    await Promise.all(Array.from({ length: 20 }, (_, n) => upload(base, ids[4 + n] ?? 1, big)));
    const manyPeak = watch.stop();
    await target.stop();

    // Directus beside: the same JPEG, the same box and format through its /assets transforms, warmed once as cartelera's was.
    let directusRun: WrkSummary | undefined;
    if (WITH_DIRECTUS) {
      const directus = await startDirectus(root, dir, await freePort());
      try {
        const asset = `/assets/${await uploadToDirectus(directus.base, original)}?width=320&format=webp`;
        await ask(directus.base, [asset]);
        const assetFile = join(dir, 'asset.txt');
        writeFileSync(assetFile, `${asset}\n`);
        await untilQuiet(QUIET_S);
        await runWrk('whatsOn', directus.base, 3, [...luaArgs, assetFile]);
        directusRun = await runWrk('whatsOn', directus.base, SECONDS, [...luaArgs, assetFile]);
        console.log(`Directus ${DIRECTUS_VERSION} /assets ${rate(directusRun).toFixed(0)}/s`);
      } finally {
        await directus.stop();
      }
    }

    const keptRatio = rate(keptRun) / rate(lookups);
    const newRatio = servedRate / sharpRate;
    const loadedRatio = rate(loaded) / rate(lookups);
    const rise = (onePeak - before) / MB;
    const directusRatio = directusRun && rate(keptRun) / rate(directusRun);
    const rows = [
      `| lookup by title, alone | ${rate(lookups).toFixed(0)}/s | | ${lookups.non2xx} non-2xx |`,
      `| kept rendition (\`ancho=320&formato=webp\`) | ${rate(keptRun).toFixed(0)}/s | ${keptRatio.toFixed(2)}× lookups (target ≥ 0.5×: ${verdict(keptRatio >= 0.5)}) | ${keptRun.non2xx} non-2xx |`,
      directusRun && directusRatio
        ? `| the same rendition from Directus ${DIRECTUS_VERSION} (\`/assets/<id>?width=320&format=webp\`) | ${rate(directusRun).toFixed(0)}/s | cartelera's kept rendition ${directusRatio.toFixed(1)}× this (target ≥ 20×: ${verdict(directusRatio >= 20)}) | ${directusRun.non2xx} non-2xx |`
        : `| the same rendition from Directus ${DIRECTUS_VERSION} | not measured (BENCH_IMAGES_DIRECTUS=0) | | |`,
      `| new renditions of a 12-megapixel JPEG, ${PARALLEL} at a time | ${servedRate.toFixed(2)}/s | ${newRatio.toFixed(2)}× sharp alone, ${sharpRate.toFixed(2)}/s (target ≥ 0.8×: ${verdict(newRatio >= 0.8)}) | ${served.made} made; CPU each ${servedMs.toFixed(0)} ms against ${aloneMs.toFixed(0)} ms alone; other processes ${servedUse.others.toFixed(1)} cores meanwhile |`,
      `| lookup by title while renditions are made | ${rate(loaded).toFixed(0)}/s | ${loadedRatio.toFixed(2)}× alone (target ≥ 0.5×: ${verdict(loadedRatio >= 0.5)}) | ${alongside.made} renditions alongside |`,
      `| upload of ${(big.length / MB).toFixed(1)} MiB | peak RSS ${(onePeak / MB).toFixed(0)} MB | rise ${rise.toFixed(0)} MB (target < 100 MB: ${verdict(rise < 100)}) | from ${(before / MB).toFixed(0)} MB |`,
      `| 20 such uploads at once | peak RSS ${(manyPeak / MB).toFixed(0)} MB | target < 600 MB: ${verdict(manyPeak < 600 * MB)} | from ${(beforeMany / MB).toFixed(0)} MB |`,
    ];
    console.log(rows.join('\n'));
    writeSection(DOC, START, END, [
      '## Images',
      '',
      `\`npm run bench\` (bench/images.ts), ${utcMinute()}, Node ${process.version}, SQLite, 1,000 movies: wrk (one thread, 32 connections, ${SECONDS} s) asks for lookups by title, then for one kept rendition over and over. Then ${sample} distinct renditions (boxes of 64 to 640 px, both fits, WebP and JPEG) of a 4000×3000 JPEG are asked for, ${PARALLEL} at a time, and the same ${sample} are made by the service's render function in a bare process pinned to the server's CPU, its libvips threads at the server's encoders' priority (the bench's own client runs on wrk's CPU), and the CPU time each rendition cost is counted on both sides; then lookups are measured again while renditions are asked for without pause. Then the server's peak RSS while a JPEG of noise near IMAGE_MAX_BYTES is uploaded, then 20 at once. Last, Directus ${DIRECTUS_VERSION} (its defaults, SQLite, pinned as cartelera is) is given the same JPEG through \`/files\`, and wrk asks for its \`/assets\` transform of the same box and format, warmed once as cartelera's.`,
      '',
      '| scenario | rate or memory | against its target | |',
      '|---|---:|---|---|',
      ...rows,
    ]);
    console.log(`images: written to ${DOC}`);
  } finally {
    await target.stop();
  }
} finally {
  await runExitTasks();
  rmSync(dir, { recursive: true, force: true });
}
