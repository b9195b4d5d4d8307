// The admin's images (a record's section Imágenes, the lists' posters) in a real Chromium, against
// the service started with `npm start`; each journey is checked through the API afterwards.
// SQLite only: the admin talks to the HTTP interface, which answers alike on both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { follow } from '../../feedClient.js';
import { accessibilityViolations, launchChromium, openPage, screenshot, startService, type Watched } from './browser.js';

type Started = Awaited<ReturnType<typeof startService>>;
type Json = Record<string, unknown>;
const TIMEOUT = { timeout: 120_000 };

/** A 768×256 PNG whose red channel tells the column (x / 3): where a crop starts can be read from its pixels. */
const ramp = (blue: number) =>
  sharp(Buffer.from(Array.from({ length: 768 * 256 }, (_, i) => [Math.floor((i % 768) / 3), 80, blue]).flat()), { raw: { width: 768, height: 256, channels: 3 } })
    .png()
    .toBuffer();

describe('images in the admin', () => {
  let service: Started;
  let browser: Browser;
  let opened: Watched[] = [];
  let pictures: [Buffer, Buffer];
  before(async () => {
    [service, browser, pictures] = await Promise.all([startService(), launchChromium(), Promise.all([ramp(0), ramp(200)] as const)]);
  });
  after(async () => {
    await browser?.close();
    await service?.cleanUp();
  });

  async function open(width: number): Promise<Page> {
    const watched = await openPage(browser, { width });
    opened.push(watched);
    return watched.page;
  }
  async function closeAll() {
    const problems = opened.flatMap((w) => w.problems);
    await Promise.all(opened.map((w) => w.context.close()));
    opened = [];
    assert.deepEqual(problems, [], 'no console errors and no CSP violations');
  }
  const images = async (recurso: string, clave: unknown) => service.api.list(`/imagenes?recurso=${recurso}&clave=${String(clave)}&_sort=orden`);
  async function accessible(page: Page, name: string) {
    assert.deepEqual(await accessibilityViolations(page), [], `${name}: WCAG 2.2 AA violations`);
  }
  /** Waits for the answer to a write of an image, made by `act`. */
  async function written(page: Page, method: string, act: () => Promise<unknown>) {
    const answered = page.waitForResponse((r) => r.request().method() === method && /\/imagenes(\/\d+)?$/.test(new URL(r.url()).pathname));
    await act();
    const response = await answered;
    assert.ok(response.ok(), `${method} ${response.url()}: ${response.status()}`);
  }
  /** Waits until the section lists `n` images. */
  const listed = (page: Page, n: number) => page.getByRole('listitem', { name: `Imagen ${n} de ${n}` }).waitFor();

  it('when two pictures are added at once with their alt texts, moved, focused, deleted and restored, then the API holds each step and the list shows the poster', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Drama' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'La ciénaga', sipnosis: 'Verano en Salta.', duracion: 103, categoria_id: categoria.id });
    const page = await open(1280);
    await page.goto(`${service.base}/admin/#/peliculas/${String(pelicula.id)}`);
    await page.getByRole('heading', { name: 'Imágenes' }).waitFor();
    await page.locator('input[type=file][name=imagenes]').setInputFiles([
      { name: 'cartel.png', mimeType: 'image/png', buffer: pictures[0] },
      { name: 'escena.png', mimeType: 'image/png', buffer: pictures[1] },
    ]);
    // Without their alt texts nothing goes out, and each says why.
    await page.getByRole('button', { name: 'Agregar 2 imágenes' }).click();
    assert.equal(await page.getByText('Escriba el texto alternativo: qué muestra la imagen.').count(), 2);
    assert.deepEqual(await images('peliculas', pelicula.id), []);
    await page.locator('[name=alt-1]').fill('Dos niñas en una pileta verde de agua estancada');
    await page.locator('[name=credito-1]').fill('Archivo Lita Stantic');
    await page.locator('[name=alt-2]').fill('Una familia almuerza bajo una galería en la siesta');
    await accessible(page, 'pictures chosen, before their upload');
    // Each file shows its own progress while it goes out: the first upload is held until its bar is seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/imagenes', async (route) => {
      await held;
      await route.continue();
    }, { times: 1 });
    await page.getByRole('button', { name: 'Agregar 2 imágenes' }).click();
    await page.getByRole('progressbar', { name: 'Progreso de «cartel.png»' }).waitFor();
    // The second waits its turn, its bar at 0.
    assert.equal(await page.getByRole('progressbar', { name: 'Progreso de «escena.png»' }).getAttribute('aria-valuenow'), '0');
    release();
    await listed(page, 2);
    let stored = await images('peliculas', pelicula.id);
    assert.deepEqual(
      stored.map((i) => [i.alt, i.credito, i.orden, i.ancho, i.alto]),
      [
        ['Dos niñas en una pileta verde de agua estancada', 'Archivo Lita Stantic', 1, 768, 256],
        ['Una familia almuerza bajo una galería en la siesta', null, 2, 768, 256],
      ],
    );
    const [first, second] = stored as [Json, Json];

    // Every write of an image, in the order the page sends them, as [id, body].
    const writes: [unknown, Json][] = [];
    page.on('request', (r) => {
      const id = /^\/imagenes\/(\d+)$/.exec(new URL(r.url()).pathname)?.[1];
      if (r.method() === 'PATCH' && id) writes.push([Number(id), r.postDataJSON() as Json]);
    });

    // The focal point: a click a quarter of the way across, then a burst of arrow presses. Each move
    // shows at once; the point is written once it rests: one PATCH for the burst, the last point shown.
    const picture = page.getByRole('button', { name: /^Punto de interés/ }).first();
    // Its box has the picture's proportions (768 × 256) whether or not the file has arrived yet.
    const box = await picture.boundingBox();
    assert.ok(box);
    assert.ok(Math.abs(box.height - box.width / 3) <= 1, `the picture's box is ${box.width} × ${box.height}`);
    await written(page, 'PATCH', () => picture.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } }));
    const preview = `getComputedStyle(document.querySelector('li[aria-label="Imagen 1 de 2"] img[data-recorte="1:1"]')).objectPosition`;
    const clicked = String(await page.evaluate(preview));
    await written(page, 'PATCH', async () => {
      for (let press = 0; press < 4; press++) await picture.press('ArrowRight');
      assert.match(String(await picture.getAttribute('aria-label')), /^Punto de interés: 45 % del ancho, 75 % del alto/);
      assert.notEqual(await page.evaluate(preview), clicked, 'the 1:1 preview follows the point before it is written');
    });
    stored = await images('peliculas', pelicula.id);
    assert.deepEqual([stored[0]?.foco_x, stored[0]?.foco_y], [45, 75]);
    // The 1:1 preview shows the crop the API cuts: its left edge is the same column of the original.
    const rendition = await fetch(`${service.base}/imagenes/${String(first.id)}/archivo?ancho=256&alto=256&ajuste=cubrir&formato=png`);
    const { data } = await sharp(Buffer.from(await rendition.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
    const apiColumn = Number(data[0]) * 3;
    const previewColumn = Number(
      await page.evaluate(`(async () => {
        const img = document.querySelector('li[aria-label="Imagen 1 de 2"] img[data-recorte="1:1"]');
        await img.decode();
        const [x] = getComputedStyle(img).objectPosition.split(' ').map(parseFloat);
        const scale = Math.max(img.clientWidth / img.naturalWidth, img.clientHeight / img.naturalHeight);
        const scaled = img.naturalWidth * scale;
        return ((x / 100) * (scaled - img.clientWidth) / scaled) * 768;
      })()`),
    );
    assert.ok(Math.abs(previewColumn - apiColumn) <= 4, `preview starts at column ${previewColumn}, the API's crop at ${apiColumn}`);

    // Two more presses, then the keyboard leaves the picture for Bajar at once: the point is written
    // as the focus leaves, before the move (its pause has not passed yet), and the list moves.
    await picture.press('ArrowDown');
    await picture.press('ArrowDown');
    const moved = page.waitForResponse((r) => r.request().method() === 'PATCH' && 'orden' in (r.request().postDataJSON() as Json));
    await page.getByRole('button', { name: 'Bajar la imagen 1' }).focus();
    await page.keyboard.press('Enter');
    assert.ok((await moved).ok());
    await page.getByRole('listitem', { name: 'Imagen 1 de 2' }).getByText('Una familia almuerza').first().waitFor({ state: 'attached' });
    stored = await images('peliculas', pelicula.id);
    assert.deepEqual(stored.map((i) => [i.id, i.foco_x, i.foco_y]), [[second.id, 50, 50], [first.id, 45, 85]]);
    assert.deepEqual(writes, [
      [first.id, { foco_x: 25, foco_y: 75 }],
      [first.id, { foco_x: 45, foco_y: 75 }],
      [first.id, { foco_x: 45, foco_y: 85 }],
      [first.id, { orden: 2 }],
    ]);

    // Dragging the second's handle with the mouse back onto the first.
    await written(page, 'PATCH', () =>
      page.getByRole('listitem', { name: 'Imagen 2 de 2' }).locator('[data-asa]').dragTo(page.getByRole('listitem', { name: 'Imagen 1 de 2' })),
    );
    await page.getByRole('listitem', { name: 'Imagen 1 de 2' }).getByText('Dos niñas en una pileta').first().waitFor({ state: 'attached' });
    assert.deepEqual((await images('peliculas', pelicula.id)).map((i) => i.id), [first.id, second.id]);
    assert.deepEqual(writes.slice(4), [[first.id, { orden: 1 }]]);
    await accessible(page, 'a movie with two images');
    await screenshot(page, 'admin-imagenes');

    // Deleting the poster, then restoring it from the Papelera: back at its place.
    await written(page, 'DELETE', () => page.getByRole('button', { name: 'Eliminar la imagen 1' }).click());
    await page.getByText('Puede restaurarla desde la Papelera').waitFor();
    assert.deepEqual((await images('peliculas', pelicula.id)).map((i) => i.id), [second.id]);
    await page.goto(`${service.base}/admin/#/papelera`);
    const row = page.getByRole('row').filter({ hasText: 'Dos niñas en una pileta' });
    await row.getByRole('button', { name: 'Restaurar' }).click();
    await page.getByText('Se restauró «Dos niñas en una pileta verde de agua estancada».').waitFor();
    assert.deepEqual((await images('peliculas', pelicula.id)).map((i) => [i.id, i.orden]), [[first.id, 1], [second.id, 2]]);

    // The list shows the poster, from a rendition no wider than 256 px, with its alt text.
    await page.goto(`${service.base}/admin/#/peliculas`);
    const poster = page.getByRole('img', { name: 'Dos niñas en una pileta verde de agua estancada' });
    await poster.waitFor();
    await page.evaluate(`document.querySelector('img[alt="Dos niñas en una pileta verde de agua estancada"]').decode()`);
    const src = String(await poster.getAttribute('src'));
    assert.match(src, new RegExp(`^/imagenes/${String(first.id)}/archivo\\?ancho=\\d+$`));
    assert.ok(Number(await page.evaluate(`document.querySelector('img[alt="Dos niñas en una pileta verde de agua estancada"]').naturalWidth`)) <= 256);
    await accessible(page, 'the movies with their posters');
    await screenshot(page, 'admin-carteles');
    await closeAll();
  });

  it('when a phone (360 px) drops a picture on the zone of an artist and of an event, then it is uploaded with its alt text, its focal point moved by the keyboard is kept as the page closes or leaves, and the events list shows a poster', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Murga' });
    const evento = await service.api.create('/eventosUrbanos', { titulo: 'Corso de Boedo', descripcion: 'Murgas.', fecha: '2027-02-20T21:00:00', lugar: 'Av. Boedo', categoria_id: categoria.id });
    await service.api.create('/artistas', { dni: 30111222, nombre: 'Lidia', apellido: 'Borda', tipo: 'cantante', descripcion: 'Murguista.' });
    const page = await open(360);
    for (const [path, recurso, clave] of [['artistas/30111222', 'artistas', 30111222], [`eventosUrbanos/${String(evento.id)}`, 'eventosUrbanos', evento.id]] as const) {
      // A new document for each record: a change of the hash alone keeps the last record's page on
      // the screen until the next one renders, and its section Imágenes would be found at once.
      await page.goto('about:blank');
      await page.goto(`${service.base}/admin/#/${path}`);
      await page.getByRole('heading', { name: 'Imágenes' }).waitFor();
      // A drop carries the files as a browser's drag from the desktop does.
      await page.getByTestId('zona-imagenes').dispatchEvent('drop', {
        dataTransfer: await page.evaluateHandle(
          `(() => { const t = new DataTransfer(); t.items.add(new File([Uint8Array.from(atob('${pictures[1].toString('base64')}'), (c) => c.charCodeAt(0))], 'retrato.png', { type: 'image/png' })); return t; })()`,
        ),
      });
      await page.locator('[name=alt-1]').fill('Una murguista con galera y levita de lentejuelas');
      // On a phone the form's toolbar stays over the screen's foot: the keyboard presses the button.
      await written(page, 'POST', async () => {
        await page.getByRole('button', { name: 'Agregar 1 imagen' }).focus();
        await page.keyboard.press('Enter');
      });
      await listed(page, 1);
      assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 360, `${path}: wider than 360 px`);
      await accessible(page, `${path} with an image, at 360 px`);
      const [image] = await images(recurso, clave);
      const picture = page.getByRole('button', { name: /^Punto de interés/ });
      if (recurso === 'artistas') {
        // The point moved, then at once the page is closed: the move arrives all the same. The
        // browser reports nothing of a closed page's requests: the change log's feed tells.
        const feed = follow(`${service.base}/cambios?desde=0&recurso=imagenes`);
        await picture.press('ArrowUp');
        await page.goto('about:blank');
        await feed.until((events) => events.some((e) => e.data.operacion === 'modificacion' && e.data.clave === image?.id), 'the point written as the page closed');
        feed.stop();
      } else {
        // The point moved, then at once the admin goes to the list: the move is written as the section goes.
        await written(page, 'PATCH', async () => {
          await picture.press('ArrowUp');
          await page.evaluate(`location.hash = '#/${recurso}'`);
        });
      }
      const [stored] = await images(recurso, clave);
      assert.deepEqual([stored?.alt, stored?.foco_x, stored?.foco_y], ['Una murguista con galera y levita de lentejuelas', 50, 45]);
    }
    // The list's poster, a 128-pixel rendition (the record's page, gone by now, showed a larger one).
    await page.getByRole('img', { name: 'Una murguista con galera y levita de lentejuelas' }).and(page.locator('[src$="/archivo?ancho=128"]')).waitFor();
    await accessible(page, 'the events with their posters, at 360 px');
    await closeAll();
  });

  it("when a finger on a phone (360 px, touch) swipes from a picture, then drags the second image's handle onto the first, in view or scrolled to, then the page scrolls with the focal point left as it was, each new orden is stored, and the works list shows the new poster", TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Teatro' });
    const obra = await service.api.create('/Obras', { titulo: 'Stéfano', descripcion: 'Un músico.', duracion: 80, categoria_id: categoria.id });
    const uploaded: Json[] = [];
    for (const [alt, picture] of [['Un hombre con un violín en una pensión', pictures[0]], ['Una mujer cose junto a una ventana', pictures[1]]] as const) {
      uploaded.push(await service.api.upload({ recurso: 'Obras', clave: String(obra.id), alt }, picture, 'image/png'));
    }
    const watched = await openPage(browser, { width: 360, height: 740, touch: true });
    opened.push(watched);
    const { page } = watched;
    await page.goto(`${service.base}/admin/#/Obras/${String(obra.id)}`);
    await listed(page, 2);
    // Real touches, as a phone's screen sends them: the browser makes them pointer events, and
    // would take a finger's move for a scroll of the page wherever the handle allowed one.
    const touch = await page.context().newCDPSession(page);
    const finger = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0, timestamp?: number) =>
      touch.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }], timestamp });
    /** Where the second card's handle is, once the page is scrolled to put it `top` pixels from the screen's top. */
    async function secondHandle(top: number) {
      const handle = page.getByRole('listitem', { name: 'Imagen 2 de 2' }).locator('[data-asa]');
      await page.evaluate(`document.querySelector('li[aria-label="Imagen 2 de 2"] [data-asa]').scrollIntoView({ block: 'start' }); scrollBy(0, -${top})`);
      const box = await handle.boundingBox();
      assert.ok(box);
      return [box.x + box.width / 2, box.y + box.height / 2] as const;
    }
    const order = async () => (await images('Obras', obra.id)).map((i) => i.id);
    const writes: Json[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && writes.push(r.postDataJSON() as Json));

    // A finger that swipes up from a picture scrolls the page and leaves the focal point where it was.
    const picture = page.getByRole('button', { name: /^Punto de interés/ }).first();
    await picture.scrollIntoViewIfNeeded();
    const swiped = await picture.boundingBox();
    assert.ok(swiped);
    const scrolled = Number(await page.evaluate('scrollY'));
    await page.evaluate(`window.scrollEnded = new Promise((resolve) => document.addEventListener('scrollend', resolve, { once: true })); undefined`);
    // From a fifth of the way across and down: a point the press shows, and the swipe takes back.
    // The touches are stamped a fifth of a second apart, the finger resting before it lifts: a slow
    // swipe, which leaves no fling going on while the handle is looked for.
    const [sx, sy] = [swiped.x + swiped.width * 0.2, swiped.y + swiped.height * 0.2];
    const start = Date.now() / 1000 - 2;
    await finger('touchStart', sx, sy, start);
    for (let step = 1; step <= 5; step++) await finger('touchMove', sx, sy - step * 30, start + step * 0.2);
    await finger('touchEnd', 0, 0, start + 1.6);
    await page.evaluate('window.scrollEnded');
    assert.notEqual(Number(await page.evaluate('scrollY')), scrolled, 'the swipe scrolled the page');
    assert.equal(await picture.getAttribute('data-foco'), '50,50');

    // The first card in view above the second: the finger moves up onto it and lets go.
    const [x, y] = await secondHandle(340);
    await written(page, 'PATCH', async () => {
      await finger('touchStart', x, y);
      for (let step = 1; step <= 5; step++) await finger('touchMove', x, y - step * 40);
      await finger('touchEnd');
    });
    await page.getByRole('listitem', { name: 'Imagen 1 de 2' }).getByText('Una mujer cose').first().waitFor({ state: 'attached' });
    assert.deepEqual(await order(), [uploaded[1]?.id, uploaded[0]?.id]);

    // The first card above the screen: the finger held at the top edge scrolls the page until the
    // first card is under the screen's middle, then goes there and lets go.
    const [x2, y2] = await secondHandle(150);
    const firstId = String(uploaded[1]?.id);
    const firstUnder = `document.elementFromPoint(${x2}, 370)?.closest('[data-imagen]')?.getAttribute('data-imagen') === '${firstId}'`;
    assert.equal(await page.evaluate(firstUnder), false, 'the first card starts above the screen');
    await written(page, 'PATCH', async () => {
      await finger('touchStart', x2, y2);
      await finger('touchMove', x2, 8);
      // Checked at each frame in the page (the admin's CSP refuses waitForFunction's eval).
      await page.evaluate(`new Promise((resolve) => { const check = () => (${firstUnder} ? resolve() : requestAnimationFrame(check)); check(); })`);
      await finger('touchMove', x2, 370);
      await finger('touchEnd');
    });
    await page.getByRole('listitem', { name: 'Imagen 1 de 2' }).getByText('Un hombre con un violín').first().waitFor({ state: 'attached' });
    assert.deepEqual(await order(), [uploaded[0]?.id, uploaded[1]?.id]);
    assert.deepEqual(writes, [{ orden: 1 }, { orden: 1 }], 'the two moves, and nothing written by the swipe');
    assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= 360, 'wider than 360 px');
    await screenshot(page, 'admin-imagenes-360');
    // The works list shows the poster, the image now first, from a 128-pixel rendition.
    await page.goto(`${service.base}/admin/#/Obras`);
    await page.getByRole('img', { name: 'Un hombre con un violín en una pensión' }).and(page.locator('[src$="/archivo?ancho=128"]')).waitFor();
    await accessible(page, 'the works with their posters, at 360 px');
    await closeAll();
  });
});
