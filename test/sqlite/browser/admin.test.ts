// The browser admin (/admin/) in a real Chromium, against the service started with `npm start`:
// each journey is done through the screens as a member of staff would, then checked through the API.
// SQLite only: the admin talks to the HTTP interface, which answers alike on both backends.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import readXlsxFile from 'read-excel-file/node';
import sharp from 'sharp';
import { etagOf } from '../../../web/src/dataProvider/etag.js';
import { root } from '../../service.js';
import { accessibilityViolations, launchChromium, openPage, screenshot, startService, type PageOptions, type Watched } from './browser.js';

type Started = Awaited<ReturnType<typeof startService>>;

/** A movie poster, 2:3, drawn for the screens (a JPEG, as staff upload them). */
const poster = () =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1b1f3a"/><stop offset="1" stop-color="#b3261e"/></linearGradient></defs>
      <rect width="600" height="900" fill="url(#g)"/>
      <circle cx="300" cy="360" r="170" fill="#f4b400"/>
      <path d="M0 620 L140 470 L240 560 L360 420 L600 640 L600 900 L0 900 Z" fill="#120d0d"/>
      <path d="M282 560 h36 l10 -120 h-56 Z" fill="#120d0d"/>
      <text x="300" y="740" font-family="sans-serif" font-weight="bold" font-size="64" fill="#fff" text-anchor="middle">RELATOS</text>
      <text x="300" y="810" font-family="sans-serif" font-weight="bold" font-size="64" fill="#fff" text-anchor="middle">SALVAJES</text>
    </svg>`),
  )
    .jpeg({ quality: 85 })
    .toBuffer();
const TIMEOUT = { timeout: 120_000 };

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** Pages opened by a test, whose problems it checks at its end. */
async function session(options: PageOptions = {}) {
  const opened: Watched[] = [];
  return {
    async open(): Promise<Page> {
      const watched = await openPage(browser, options);
      opened.push(watched);
      return watched.page;
    },
    async close() {
      const problems = opened.flatMap((w) => w.problems);
      await Promise.all(opened.map((w) => w.context.close()));
      assert.deepEqual(problems, [], 'no console errors and no CSP violations');
    },
  };
}

const input = (page: Page, name: string) => page.locator(`[name="${name}"]`);
const save = (page: Page) => page.getByRole('button', { name: 'Guardar' }).click();
/** Types into a reference picker and picks the option named so. */
async function pick(page: Page, name: string, typed: string, option: string | RegExp) {
  await input(page, name).fill(typed);
  await page.getByRole('option', { name: option }).click();
}
/** Waits until the page has no request under way (react-admin's loading indicator is gone). */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('[role=progressbar]').first().waitFor({ state: 'detached' });
}
/** Presses Tab until `focused` (page code, as text) is true of the focused element. */
async function tabTo(page: Page, focused: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(focused)) return;
  }
  assert.fail(`Tab never reached: ${focused}`);
}
/**
 * Fails unless the page is no wider than its screen (`width` px) and every button and link it shows
 * lies within the screen's width, where a finger reaches it without scrolling sideways.
 */
async function fits(page: Page, name: string, width: number) {
  assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= width, `${name}: wider than ${width} px`);
  const outside = await page.evaluate(`[...document.querySelectorAll('button, a[href], [role=button], [role=menuitem]')]
    .filter((e) => e.checkVisibility({ visibilityProperty: true }) && !e.closest('[aria-hidden=true]'))
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && (r.left < 0 || r.right > ${width}))
    .map(([e, r]) => (e.getAttribute('aria-label') || e.textContent) + ' ' + Math.round(r.left) + '–' + Math.round(r.right))`);
  assert.deepEqual(outside, [], `${name}: buttons or links off the screen`);
}
/** Fails if axe-core finds anything against WCAG 2.2 AA on the page as it is now. */
async function accessible(page: Page, name: string) {
  assert.deepEqual(await accessibilityViolations(page), [], `${name}: WCAG 2.2 AA violations`);
}
/** The text shown under an input (its helper or error). */
async function helperText(page: Page, name: string): Promise<string> {
  const id = await input(page, name).getAttribute('aria-describedby');
  assert.ok(id, `${name} has no helper text`);
  return page.locator(`[id="${id}"]`).innerText();
}

describe('the admin at /admin/', () => {
  let service: Started;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.cleanUp();
  });

  it('when / is opened, then the admin answers there, precompressed, its assets cached as immutable and under its own CSP', TIMEOUT, async () => {
    const root = await fetch(`${service.base}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/admin/');
    const index = await fetch(`${service.base}/admin/`, { headers: { 'accept-encoding': 'br' } });
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('content-encoding'), 'br');
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|https?:/);
    const html = await index.text();
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'index.html names its script');
    const asset = await fetch(`${service.base}/admin/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(asset.headers.get('content-encoding'), 'gzip');
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    // The budget: at most 600 KB of compressed JavaScript on the first load.
    const scripts = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    let bytes = 0;
    for (const path of scripts) {
      const answer = await fetch(`${service.base}/admin/${path}`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(answer.headers.get('content-encoding'), 'br');
      bytes += Number(answer.headers.get('content-length'));
    }
    assert.ok(bytes > 0 && bytes <= 600 * 1024, `${bytes} bytes of compressed JavaScript`);
    // The API keeps its own policy.
    const list = await fetch(`${service.base}/peliculas`);
    assert.match(list.headers.get('content-security-policy') ?? '', /^default-src 'none'/);
  });

  it('when a category, a movie in it, an artist and a participation are created through the forms, then the API holds them', TIMEOUT, async () => {
    const s = await session();
    const page = await s.open();
    const base = `${service.base}/admin/#`;

    await page.goto(`${base}/categorias/create`);
    await input(page, 'nombre').fill('Cine de autor');
    await save(page);
    await page.waitForURL(/#\/categorias\/\d+\/show$/);
    const [categoria] = await service.api.list('/categorias?nombre=Cine%20de%20autor');
    assert.ok(categoria);

    await page.goto(`${base}/peliculas/create`);
    await input(page, 'titulo').fill('Relatos salvajes');
    await input(page, 'sipnosis').fill('Seis relatos de venganza.');
    await input(page, 'duracion').fill('122');
    await pick(page, 'categoria_id', 'cine de autor', 'Cine de autor');
    await screenshot(page, 'pelicula-crear');
    await save(page);
    await page.waitForURL(/#\/peliculas\/\d+\/show$/);
    // Nobody takes part yet, and the page says so of people.
    await page.locator('#main-content').getByText('Nadie participa todavía.', { exact: true }).waitFor();
    assert.equal(await page.getByText('No se encontraron').count(), 0);
    const [pelicula] = await service.api.list('/peliculas?titulo=Relatos%20salvajes');
    assert.deepEqual({ ...pelicula, id: 0 }, { id: 0, titulo: 'Relatos salvajes', sipnosis: 'Seis relatos de venganza.', duracion: 122, categoria_id: categoria.id });

    await page.goto(`${base}/artistas/create`);
    await input(page, 'dni').fill('27111222');
    await input(page, 'nombre').fill('Érica');
    await input(page, 'apellido').fill('Rivas');
    await input(page, 'tipo').fill('actriz');
    await input(page, 'descripcion').fill('Actriz argentina.');
    await save(page);
    await page.waitForURL(/#\/artistas\/27111222\/show$/);
    await page.locator('#main-content').getByText('Todavía no participó en nada.', { exact: true }).waitFor();
    assert.deepEqual(await service.api.list('/artistas?dni=27111222'), [
      { dni: 27111222, nombre: 'Érica', apellido: 'Rivas', tipo: 'actriz', descripcion: 'Actriz argentina.' },
    ]);

    await page.goto(`${base}/participaciones/create`);
    // The artist is found by dni as well as by name.
    await input(page, 'artistas_dni').fill('27111222');
    await page.getByRole('option', { name: 'Érica Rivas (DNI 27111222)' }).waitFor();
    await input(page, 'artistas_dni').fill('');
    await pick(page, 'artistas_dni', 'erica', /Érica Rivas/);
    await page.getByRole('combobox', { name: 'Tipo de evento' }).click();
    await page.getByRole('option', { name: 'Película' }).click();
    await pick(page, 'evento_id', 'relatos', 'Relatos salvajes');
    await screenshot(page, 'participacion-crear');
    await save(page);
    await page.waitForURL(/#\/participaciones\/\d+\/show$/);
    const participaciones = await service.api.list('/participaciones?artistas_dni=27111222');
    assert.deepEqual(participaciones.map(({ id: _, ...p }) => p), [{ artistas_dni: 27111222, tipo_evento: 'pelicula', evento_id: pelicula?.id }]);

    // The movie's page shows its poster (with its alt text and credit) and who took part; the artist's page what they took part in.
    const alt = 'Un hombre de traje ante un sol enorme sobre un cerro';
    await service.api.upload({ recurso: 'peliculas', clave: String(pelicula?.id), alt, credito: 'Afiche de prueba' }, await poster(), 'image/jpeg');
    await page.goto(`${base}/peliculas/${pelicula?.id}/show`);
    await page.getByText('Érica Rivas').waitFor();
    const shown = page.getByRole('img', { name: alt });
    await page.evaluate(`document.querySelector('img[alt="${alt}"]').decode()`);
    assert.match(String(await shown.getAttribute('src')), /^\/imagenes\/\d+\/archivo\?ancho=480$/);
    await page.getByText('Afiche de prueba').waitFor();
    await accessible(page, "a movie's page with its poster");
    await screenshot(page, 'pelicula-ver');
    await page.goto(`${base}/artistas/27111222/show`);
    await page.getByText('Relatos salvajes').waitFor();
    await s.close();
  });

  it('when "cancion" is searched, then "La Canción" is found, and only what matches', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Musical' });
    await service.api.create('/peliculas', { titulo: 'La Canción', sipnosis: 'Una canción.', duracion: 80, categoria_id: categoria.id });
    await service.api.create('/peliculas', { titulo: 'El silencio', sipnosis: 'Nada suena.', duracion: 70, categoria_id: categoria.id });
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/peliculas`);
    await input(page, 'q').fill('cancion');
    await page.getByText('La Canción').waitFor();
    await page.getByText('El silencio').waitFor({ state: 'detached' });
    await screenshot(page, 'peliculas-buscar');
    assert.deepEqual((await service.api.list('/peliculas?q=cancion')).map((p) => p.titulo), ['La Canción']);
    await s.close();
  });

  it('when a form is refused for a field, then the sentence shows on that field, and once fixed it saves', TIMEOUT, async () => {
    await service.api.create('/categorias', { nombre: 'Teatro clásico' });
    const s = await session({ refusals: [400] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/Obras/create`);
    await input(page, 'titulo').fill('La vida es sueño');
    await input(page, 'descripcion').fill('Drama de Calderón.');
    await input(page, 'duracion').fill('0');
    await pick(page, 'categoria_id', 'teatro', 'Teatro clásico');
    await save(page);
    await page.locator('[name="duracion"][aria-invalid="true"]').waitFor();
    assert.match(await helperText(page, 'duracion'), /^El campo 'duracion' debe estar entre 1 y 100000\.$/);
    await screenshot(page, 'obra-error-de-campo');
    assert.deepEqual(await service.api.list('/Obras?titulo=La%20vida%20es%20sue%C3%B1o'), []);

    await input(page, 'duracion').fill('110');
    await save(page);
    await page.waitForURL(/#\/Obras\/\d+\/show$/);
    const [obra] = await service.api.list('/Obras?titulo=La%20vida%20es%20sue%C3%B1o');
    assert.equal(obra?.duracion, 110);
    await s.close();
  });

  it('when a category in use is deleted, then the API\'s sentence is shown and nothing is deleted', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Documental' });
    await service.api.create('/peliculas', { titulo: 'El etnógrafo', sipnosis: 'Un antropólogo en el Chaco.', duracion: 90, categoria_id: categoria.id });
    const s = await session({ refusals: [400] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/categorias/${categoria.id}`);
    await input(page, 'nombre').and(page.locator('[value="Documental"]')).waitFor();
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    const sentence = 'La categoría "Documental" está en uso por 1 película; no se puede eliminar.';
    await page.getByText(sentence).waitFor();
    await screenshot(page, 'categoria-en-uso');
    assert.deepEqual(await service.api.list(`/categorias?id=${categoria.id}`), [categoria]);
    await s.close();
  });

  it('when two tabs edit one record, then the second to save is told it changed, and can reload without losing what it typed', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Comedia' });
    const obra = await service.api.create('/Obras', { titulo: 'Esperando la carroza', descripcion: 'Una familia.', duracion: 90, categoria_id: categoria.id });
    const s = await session({ refusals: [412] });
    const [first, second] = [await s.open(), await s.open()];
    for (const page of [first, second]) {
      await page.goto(`${service.base}/admin/#/Obras/${obra.id}`);
      await input(page, 'titulo').and(page.locator('[value="Esperando la carroza"]')).waitFor();
    }
    await input(first, 'descripcion').fill('Una familia y una abuela.');
    await save(first);
    await first.waitForURL(/\/show$/);

    await input(second, 'duracion').fill('95');
    await save(second);
    await second.getByText('Otra persona cambió este registro mientras usted lo editaba.').waitFor();
    await screenshot(second, 'obra-conflicto');
    assert.equal((await service.api.list(`/Obras?id=${obra.id}`))[0]?.duracion, 90, 'the refused save changed nothing');

    await second.getByRole('button', { name: 'Recargar el registro' }).click();
    await input(second, 'descripcion').and(second.locator('text=Una familia y una abuela.')).waitFor();
    assert.equal(await input(second, 'duracion').inputValue(), '95', 'what was typed is kept');
    await save(second);
    await second.waitForURL(/\/show$/);
    const [saved] = await service.api.list(`/Obras?id=${obra.id}`);
    assert.deepEqual(saved, { ...obra, descripcion: 'Una familia y una abuela.', duracion: 95 });
    await s.close();
  });

  it('when 250 movies are listed, then the admin pages through them from the service', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Archivo' });
    for (let i = 1; i <= 250; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          service.api.create('/peliculas', { titulo: `Archivo ${String(i + j).padStart(3, '0')}`, sipnosis: 'Del archivo.', duracion: 60, categoria_id: categoria.id }),
        ),
      );
    }
    const s = await session();
    const page = await s.open();
    const filter = encodeURIComponent(JSON.stringify({ categoria_id: categoria.id }));
    await page.goto(`${service.base}/admin/#/peliculas?filter=${filter}&sort=titulo&order=ASC`);
    await page.getByText('1-10 de 250').waitFor();
    await page.getByText('Archivo 001').waitFor();
    await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
    await page.getByText('11-20 de 250').waitFor();
    await page.getByText('Archivo 011').waitFor();
    await page.getByRole('button', { name: 'Ir a la página 25' }).click();
    await page.getByText('241-250 de 250').waitFor();
    await page.getByText('Archivo 250').waitFor();
    await screenshot(page, 'peliculas-paginas');
    assert.equal((await service.api.list(`/peliculas?categoria_id=${categoria.id}&_limit=1000`)).length, 250);
    await s.close();
  });

  it('when a member of staff uses only the keyboard, then they can add a movie, find it, open it and fix it', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Policial' });
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/peliculas/create`);
    await input(page, 'titulo').waitFor();
    await tabTo(page, "document.activeElement.name === 'titulo'");
    await page.keyboard.type('Nueve reinas');
    await tabTo(page, "document.activeElement.name === 'sipnosis'");
    await page.keyboard.type('Dos estafadores y un sello.');
    await tabTo(page, "document.activeElement.name === 'duracion'");
    await page.keyboard.type('114');
    await tabTo(page, "document.activeElement.name === 'categoria_id'");
    await page.keyboard.type('polic');
    await page.getByRole('option', { name: 'Policial' }).waitFor();
    await page.getByRole('option').nth(1).waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await tabTo(page, "document.activeElement.getAttribute('aria-label') === 'Guardar'");
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/peliculas\/\d+\/show$/);
    const [created] = await service.api.list('/peliculas?titulo=Nueve%20reinas');
    assert.deepEqual({ ...created, id: 0 }, { id: 0, titulo: 'Nueve reinas', sipnosis: 'Dos estafadores y un sello.', duracion: 114, categoria_id: categoria.id });

    await page.goto(`${service.base}/admin/#/peliculas`);
    await tabTo(page, "document.activeElement.name === 'q'");
    await page.keyboard.type('nueve');
    await page.getByText('1-1 de 1').waitFor();
    await tabTo(page, "document.activeElement.tagName === 'A' && document.activeElement.textContent === 'Nueve reinas'");
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/peliculas/${created?.id}/show$`));
    await tabTo(page, "document.activeElement.getAttribute('aria-label') === 'Editar'");
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/peliculas/${created?.id}$`));
    await input(page, 'duracion').and(page.locator('[value="114"]')).waitFor();
    await tabTo(page, "document.activeElement.name === 'duracion'");
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('115');
    await tabTo(page, "document.activeElement.getAttribute('aria-label') === 'Guardar'");
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/show$/);
    assert.equal((await service.api.list(`/peliculas?id=${created?.id}`))[0]?.duracion, 115);
    await s.close();
  });

  it('when a save is refused for a reason no field explains, then a notification says why and nothing changes', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Western' });
    await service.api.create('/peliculas', { titulo: 'Lo bueno, lo malo', sipnosis: 'Tres pistoleros.', duracion: 160, categoria_id: categoria.id });
    const s = await session({ refusals: [400, 412, 0] });
    const page = await s.open();

    // A title that exists (accents and case aside).
    await page.goto(`${service.base}/admin/#/peliculas/create`);
    await input(page, 'titulo').fill('LO BUENO, LO MALO');
    await input(page, 'sipnosis').fill('Otra vez.');
    await input(page, 'duracion').fill('100');
    await pick(page, 'categoria_id', 'western', 'Western');
    await save(page);
    await page.getByText('Ya existe una película con el titulo de: LO BUENO, LO MALO, por favor, intente con otro distinto').waitFor();
    await screenshot(page, 'pelicula-titulo-repetido');
    assert.equal((await service.api.list(`/peliculas?categoria_id=${categoria.id}`)).length, 1);

    // A record deleted while it was being edited.
    const efimera = await service.api.create('/categorias', { nombre: 'Efímera' });
    await page.goto(`${service.base}/admin/#/categorias/${efimera.id}`);
    await input(page, 'nombre').and(page.locator('[value="Efímera"]')).waitFor();
    assert.equal((await service.api.call('DELETE', `/categorias/${efimera.id}`)).status, 200);
    await input(page, 'nombre').fill('Perenne');
    await save(page);
    await page.getByText('No se guardó nada: otra persona eliminó este registro mientras usted lo editaba.').waitFor();
    assert.equal(await page.getByText('Otra persona cambió este registro').count(), 0, 'not told it changed: it is gone');
    await screenshot(page, 'categoria-eliminada-mientras');
    assert.deepEqual(await service.api.list('/categorias?nombre=Perenne'), []);

    // The service out of reach: the connection is refused.
    await page.goto(`${service.base}/admin/#/categorias/create`);
    await input(page, 'nombre').fill('Sin conexión');
    await page.route('**/categorias', (route) => route.abort('connectionrefused'));
    await save(page);
    await page.getByText('No se pudo contactar con el servicio. Compruebe la conexión e inténtelo de nuevo.').waitFor();
    await screenshot(page, 'servicio-inalcanzable');
    await page.unroute('**/categorias');
    assert.deepEqual(await service.api.list('/categorias?nombre=Sin%20conexi%C3%B3n'), []);
    await s.close();
  });

  it('when lists are filtered from the filter menu, then movies keep to a category and a duration range, and events to whole days as entered, whatever the browser\'s zone', TIMEOUT, async () => {
    const negro = await service.api.create('/categorias', { nombre: 'Cine negro' });
    const otra = await service.api.create('/categorias', { nombre: 'Cine mudo' });
    const pelicula = (titulo: string, duracion: number, categoria_id: unknown) =>
      service.api.create('/peliculas', { titulo, sipnosis: 'Sombras.', duracion, categoria_id });
    await pelicula('Sombra corta', 90, negro.id);
    await pelicula('Sombra justa', 120, negro.id);
    await pelicula('Sombra larga', 150, negro.id);
    await pelicula('Sombra muda', 120, otra.id);
    const carnaval = await service.api.create('/categorias', { nombre: 'Carnaval' });
    // Dates are the events' wall clock, whatever the browser's zone: 22:00 on the 20th is the 20th.
    const evento = (titulo: string, fecha: string) =>
      service.api.create('/eventosUrbanos', { titulo, descripcion: 'Tambores.', fecha, lugar: 'Barrio Sur', categoria_id: carnaval.id });
    await evento('Llamadas, víspera', '2027-02-19T22:00:00Z');
    await evento('Llamadas, primera noche', '2027-02-20T22:00:00Z');
    await evento('Llamadas, segunda noche', '2027-02-21');
    const s = await session({ timezoneId: 'America/Montevideo' });
    const page = await s.open();
    const addFilter = async (label: string) => {
      await page.getByRole('button', { name: 'Agregar filtro' }).click();
      await page.getByRole('menuitemcheckbox', { name: label }).click();
    };

    await page.goto(`${service.base}/admin/#/peliculas`);
    await input(page, 'q').fill('sombra');
    await page.getByText('Sombra muda').waitFor();
    // Each filter applies before the next is added, as a person's pace allows.
    await addFilter('Categoría');
    await pick(page, 'categoria_id', 'cine negro', 'Cine negro');
    await page.getByText('Sombra muda').waitFor({ state: 'detached' });
    await addFilter('Duración mínima');
    await input(page, 'duracion_gte').fill('100');
    await page.getByText('Sombra corta').waitFor({ state: 'detached' });
    await addFilter('Duración máxima');
    await input(page, 'duracion_lte').fill('130');
    await page.getByText('Sombra larga').waitFor({ state: 'detached' });
    await page.getByText('Sombra justa').waitFor();
    assert.equal(await page.getByText(/^Sombra /).count(), 1);
    await screenshot(page, 'peliculas-filtros');
    const filtered = await service.api.list(`/peliculas?q=sombra&categoria_id=${negro.id}&duracion_gte=100&duracion_lte=130`);
    assert.deepEqual(filtered.map((p) => p.titulo), ['Sombra justa']);

    await page.goto(`${service.base}/admin/#/eventosUrbanos`);
    await page.getByText('Llamadas, víspera').waitFor();
    await addFilter('Desde');
    await input(page, 'fecha_gte').fill('20/02/2027');
    await page.getByText('Llamadas, víspera').waitFor({ state: 'detached' });
    await addFilter('Hasta');
    await input(page, 'fecha_lte').fill('20/02/2027');
    await page.getByText('Llamadas, segunda noche').waitFor({ state: 'detached' });
    await page.getByText('Llamadas, primera noche').waitFor();
    await screenshot(page, 'eventos-por-fecha');
    const day = await service.api.list(`/eventosUrbanos?fecha_gte=2027-02-20&fecha_lte=2027-02-20T23:59:59.999Z`);
    assert.deepEqual(day.map((e) => e.titulo), ['Llamadas, primera noche']);
    await s.close();
  });

  it('when the browser is in Buenos Aires or in Tokyo, then an event shows the day and time it was entered, in the list, on its page and in the form, and saving the form keeps its fecha', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Ferias' });
    const evento = (titulo: string, fecha: string) =>
      service.api.create('/eventosUrbanos', { titulo, descripcion: 'Para toda la familia.', fecha, lugar: 'La Rural', categoria_id: categoria.id });
    const diaEntero = await evento('Feria del libro', '2026-11-14');
    const conHora = await evento('Milonga abierta', '2026-11-14T20:30:00Z');
    assert.equal(diaEntero.fecha, '2026-11-14T00:00:00.000+00:00');
    const shown = { [String(diaEntero.id)]: '14/11/2026', [String(conHora.id)]: '14/11/2026 20:30' };
    const inForm = shown;

    for (const timezoneId of ['America/Argentina/Buenos_Aires', 'Asia/Tokyo']) {
      const s = await session({ timezoneId });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/eventosUrbanos?filter=${encodeURIComponent(JSON.stringify({ categoria_id: categoria.id }))}`);
      for (const [titulo, id] of [['Feria del libro', diaEntero.id], ['Milonga abierta', conHora.id]] as const) {
        const row = page.locator('#main-content tbody tr').filter({ hasText: titulo });
        await row.waitFor();
        const cells = await row.locator('td').allInnerTexts();
        assert.ok(cells.includes(shown[String(id)] ?? ''), `${timezoneId}: the list shows ${titulo} as ${shown[String(id)]}, not ${cells.join(' | ')}`);

        await page.goto(`${service.base}/admin/#/eventosUrbanos/${id}/show`);
        await page.locator('#main-content').getByText('Fecha y hora', { exact: true }).waitFor();
        const text = await page.locator('#main-content').innerText();
        assert.match(text, new RegExp(`(^|\\n)${(shown[String(id)] ?? '').replace(/\//g, '\\/')}(\\n|$)`), `${timezoneId}: ${titulo}'s page`);
        assert.doesNotMatch(text, /1[35]\/11\/2026/, `${timezoneId}: ${titulo} shown on another day`);

        await page.goto(`${service.base}/admin/#/eventosUrbanos/${id}`);
        await input(page, 'titulo').and(page.locator(`[value="${titulo}"]`)).waitFor();
        assert.equal(await input(page, 'fecha').inputValue(), inForm[String(id)], `${timezoneId}: ${titulo}'s form`);
        await input(page, 'lugar').fill(`Predio ${timezoneId}`);
        await save(page);
        await page.waitForURL(new RegExp(`#/eventosUrbanos/${id}/show$`));
        const [stored] = await service.api.list(`/eventosUrbanos?id=${id}`);
        assert.equal(stored?.lugar, `Predio ${timezoneId}`);
        assert.equal(stored?.fecha, id === diaEntero.id ? diaEntero.fecha : conHora.fecha, `${timezoneId}: saving ${titulo} kept its fecha`);
        await page.goto(`${service.base}/admin/#/eventosUrbanos?filter=${encodeURIComponent(JSON.stringify({ categoria_id: categoria.id }))}`);
      }

      // A date typed in the form is stored as typed.
      await page.goto(`${service.base}/admin/#/eventosUrbanos/create`);
      const titulo = `Noche de museos ${timezoneId}`;
      await input(page, 'titulo').fill(titulo);
      await input(page, 'descripcion').fill('Museos abiertos hasta tarde.');
      await input(page, 'fecha').fill('21/11/2026 19:00');
      await input(page, 'lugar').fill('Centro');
      await pick(page, 'categoria_id', 'ferias', 'Ferias');
      await save(page);
      await page.waitForURL(/#\/eventosUrbanos\/\d+\/show$/);
      await page.locator('#main-content').getByText('21/11/2026 19:00', { exact: true }).waitFor();
      const [created] = await service.api.list(`/eventosUrbanos?titulo=${encodeURIComponent(titulo)}`);
      assert.equal(created?.fecha, '2026-11-21T19:00:00.000+00:00');
      await s.close();
    }
  });

  it('when every screen is opened on a phone (360 px) and on a desktop, then each fits its width with every button on screen, meets WCAG 2.2 AA (axe), is in Spanish, labels its inputs, links each listed record and logs no error', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Callejero' });
    const evento = await service.api.create('/eventosUrbanos', {
      titulo: 'Murga en el barrio', descripcion: 'Murgas.', fecha: '2027-02-20', lugar: 'Parque Rodó', categoria_id: categoria.id,
    });
    const artista = await service.api.create('/artistas', { dni: 30111222, nombre: 'Ana', apellido: 'Prada', tipo: 'cantante', descripcion: 'Murguista.' });
    const participacion = await service.api.create('/participaciones', { artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: evento.id });
    // A movie with its cast and a history, and a deletion in the Papelera: the screens at their widest.
    const pelicula = await service.api.create('/peliculas', {
      titulo: 'Una película de título largo, como muchos', sipnosis: 'Larga.', duracion: 140, categoria_id: categoria.id,
    });
    await service.api.create('/participaciones', { artistas_dni: artista.dni, tipo_evento: 'pelicula', evento_id: pelicula.id });
    await service.api.call('PATCH', `/peliculas/${pelicula.id}`, { duracion: 141 });
    const borrada = await service.api.create('/Obras', { titulo: 'Una obra que se borró y tenía un título largo', descripcion: 'Ya no.', duracion: 60, categoria_id: categoria.id });
    await service.api.call('DELETE', `/Obras/${borrada.id}`);
    const lugar = await service.api.create('/lugares', { nombre: 'Teatro de un nombre largo, como tantos', direccion: 'Av. Corrientes 1530', latitud: -34.6037, longitud: -58.3816 });
    await service.api.create('/funciones', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio: '2030-01-01T20:00', notas: 'Subtitulada' });
    const records: Record<string, unknown> = {
      lugares: lugar.id,
      peliculas: pelicula.id,
      Obras: (await service.api.list('/Obras?_limit=1'))[0]?.id,
      eventosUrbanos: evento.id,
      artistas: artista.dni,
      participaciones: participacion.id,
      categorias: categoria.id,
    };
    for (const width of [360, 1280]) {
      const s = await session({ width });
      const page = await s.open();
      for (const [resource, id] of Object.entries(records)) {
        for (const screen of ['', '/create', `/${id}/show`, `/${id}`]) {
          await page.goto(`${service.base}/admin/#/${resource}${screen}`);
          await page.locator('#main-content').waitFor();
          await settled(page);
          const name = `${resource}${screen.replace(String(id), 'id').replaceAll('/', '-')}-${width}`;
          await screenshot(page, name);
          await fits(page, name, width);
          await accessible(page, name);
          const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, textarea')]
            .filter((i) => i.type !== 'hidden' && i.getAttribute('aria-hidden') !== 'true' && i.labels.length === 0 && !i.getAttribute('aria-label'))
            .map((i) => i.name || i.outerHTML)`);
          assert.deepEqual(unlabelled, [], `${name}: inputs without a label`);
          // A message key or a plural form ("Película |||| Películas") shown as it is was never translated.
          const untranslated = /\|\|\|\||\b(?:ra|resources|cartelera)\.[a-z_]+\.[\w.]+/i.exec(await page.locator('body').innerText());
          assert.equal(untranslated, null, `${name}: text left untranslated`);
          if (screen.endsWith('/show') && ['peliculas', 'Obras', 'eventosUrbanos'].includes(resource)) {
            // Each value on a record's page is named: the category (a link) and an event's date too.
            for (const label of resource === 'eventosUrbanos' ? ['Categoría', 'Fecha y hora'] : ['Categoría']) {
              assert.equal(await page.locator('#main-content').getByText(label, { exact: true }).count(), 1, `${name}: no label ${label}`);
            }
          }
          if (screen === '') {
            // The keyboard opens a record through a link: each listed record has one to its page.
            const unlinked = await page.evaluate(`[...document.querySelectorAll('#main-content tbody tr, #main-content ul:not(.MuiPagination-ul) > li')]
              .filter((row) => !row.querySelector('a[href^="#/${resource}/"]') && !row.matches('a[href^="#/${resource}/"]'))
              .map((row) => row.textContent)`);
            assert.deepEqual(unlinked, [], `${name}: listed records without a link`);
          }
        }
      }
      for (const [screen, shows] of [['cambios', 'Una película de título largo'], ['papelera', 'Restaurar'], ['importar', 'Exportar todo'], ['cartelera', 'No hay funciones esta semana']] as const) {
        await page.goto(`${service.base}/admin/#/${screen}`);
        await page.locator('#main-content').getByText(shows).first().waitFor();
        await settled(page);
        await screenshot(page, `${screen}-${width}`);
        await fits(page, `${screen}-${width}`, width);
        await accessible(page, `${screen}-${width}`);
      }
      await s.close();
    }
  });
});

describe('the admin with write keys (API_KEYS)', () => {
  const KEY = 'clave-de-escritura-0123456789';
  let service: Started;
  before(async () => {
    service = await startService({ API_KEYS: KEY });
  });
  after(async () => {
    await service?.cleanUp();
  });

  it('when the first write is refused for want of a key, then the key is asked for, a wrong one explained, and the right one saves and is kept for the session', TIMEOUT, async () => {
    const s = await session({ refusals: [401, 403] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/categorias/create`);
    await input(page, 'nombre').fill('Zarzuela');
    await save(page);
    const dialog = page.getByRole('dialog', { name: 'Clave de escritura' });
    await dialog.getByText('El servicio pide una clave para guardar cambios.', { exact: false }).waitFor();
    await screenshot(page, 'clave-de-escritura');
    await input(page, 'writeKey').fill('una-clave-que-no-es-0123');
    await dialog.getByRole('button', { name: 'Usar esta clave' }).click();
    await dialog.getByText('El servicio no aceptó esa clave.', { exact: false }).waitFor();
    await input(page, 'writeKey').fill(KEY);
    await dialog.getByRole('button', { name: 'Usar esta clave' }).click();
    await page.waitForURL(/#\/categorias\/\d+\/show$/);
    assert.equal((await service.api.list('/categorias?nombre=Zarzuela')).length, 1);
    assert.equal(await page.evaluate("sessionStorage.getItem('cartelera.writeKey')"), KEY);

    // The next write goes through without asking again.
    await page.goto(`${service.base}/admin/#/categorias/create`);
    await input(page, 'nombre').fill('Sainete');
    await save(page);
    await page.waitForURL(/#\/categorias\/\d+\/show$/);
    assert.equal((await service.api.list('/categorias?nombre=Sainete')).length, 1);
    await s.close();
  });

  it('when the key is not given, then nothing is saved and the user is told why', TIMEOUT, async () => {
    const s = await session({ refusals: [401] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/categorias/create`);
    await input(page, 'nombre').fill('Ópera');
    await save(page);
    await page.getByRole('dialog', { name: 'Clave de escritura' }).getByRole('button', { name: 'Cancelar' }).click();
    await page.getByText('No se guardó nada: el servicio exige una clave de escritura para modificar datos.').waitFor();
    assert.deepEqual(await service.api.list('/categorias?nombre=%C3%93pera'), []);
    await s.close();
  });

  it('when the key is asked for and not given, a form is refused for its fields, a record is not there and an address leads nowhere, at 360 and 1280 px, then each screen meets WCAG 2.2 AA (axe)', TIMEOUT, async () => {
    for (const width of [360, 1280]) {
      const s = await session({ width, refusals: [400, 401, 404] });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/categorias/create`);
      await input(page, 'nombre').fill('Zarzuela');
      await save(page);
      const dialog = page.getByRole('dialog', { name: 'Clave de escritura' });
      await dialog.waitFor();
      await accessible(page, `clave-de-escritura-${width}`);
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('No se guardó nada', { exact: false }).waitFor();
      await accessible(page, `sin-clave-${width}`);
      // A movie sent with its title alone: the service refuses the fields left out, each under its field.
      await page.goto(`${service.base}/admin/#/peliculas/create`);
      await input(page, 'titulo').fill('Sin terminar');
      await save(page);
      await input(page, 'writeKey').fill(KEY);
      await dialog.getByRole('button', { name: 'Usar esta clave' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      await accessible(page, `pelicula-incompleta-${width}`);
      // A record that is not there: the notification, then the list it leads to, still empty.
      await page.goto(`${service.base}/admin/#/Obras/999999/show`);
      await page.getByText('El registro no existe', { exact: false }).first().waitFor();
      await page.locator('.RaEmpty-message').waitFor();
      await accessible(page, `obra-inexistente-${width}`);
      await page.goto(`${service.base}/admin/#/nada`);
      await page.getByText('La dirección está mal escrita', { exact: false }).waitFor();
      await accessible(page, `no-encontrada-${width}`);
      await s.close();
    }
  });
});

describe('the admin\'s import and export', () => {
  let service: Started;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.cleanUp();
  });
  const fixture = (name: string) => join(root, 'test', 'fixtures', 'spreadsheets', name);

  it('when a workbook with a bad row is imported, then the row\'s problem is shown and nothing stored; once fixed, it is checked, imported, and the API holds it', TIMEOUT, async () => {
    const s = await session({ refusals: [400] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/`);
    await page.getByRole('menuitem', { name: 'Importar y exportar' }).click();
    await page.waitForURL(/#\/importar$/);

    await input(page, 'archivo').setInputFiles(fixture('catalogo-con-error.xlsx'));
    await page.getByTestId('archivos-elegidos').getByText('catalogo-con-error.xlsx').waitFor();
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await page.getByText('1 problema: no se guardó nada.', { exact: false }).waitFor();
    const problems = page.getByRole('table', { name: 'Problema' });
    assert.deepEqual(await problems.locator('tbody tr').first().locator('td').allInnerTexts(), [
      'catalogo-con-error.xlsx',
      'Películas',
      '3',
      'Duración (minutos)',
      'dos horas',
      "El campo 'Duración (minutos)' debe ser un número entero. Ejemplos: 95, 1:35, 1h35.",
    ]);
    await screenshot(page, 'importar-problemas');
    assert.deepEqual(await service.api.list('/categorias'), []);

    await input(page, 'archivo').setInputFiles(fixture('catalogo.xlsx'));
    await page.getByRole('button', { name: 'Comprobar' }).click();
    await page.getByText('Sin problemas.', { exact: false }).waitFor();
    assert.deepEqual(await service.api.list('/categorias'), []);
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    await page.getByText('Se guardó todo.', { exact: false }).waitFor();
    const counts = page.getByRole('table', { name: 'Recurso' });
    assert.deepEqual(await counts.locator('tbody tr').first().locator('td').allInnerTexts(), ['Categorías', '3', '0', '0']);
    await screenshot(page, 'importar-guardado');
    assert.deepEqual((await service.api.list('/peliculas')).map((p) => [p.titulo, p.duracion]), [['La ciénaga', 103], ['Relatos salvajes', 122]]);
    assert.deepEqual((await service.api.list('/eventosUrbanos')).map((e) => e.fecha), ['2026-11-14T20:30:00.000+00:00', '2026-11-20T00:00:00.000+00:00']);
    await s.close();
  });

  it('when a file cannot be read at all, then its problem is in the page\'s report and stays there until the next check replaces the report whole', TIMEOUT, async () => {
    for (const width of [1280, 360]) {
      const stored = await service.api.list('/categorias');
      const s = await session({ width, refusals: [400, 0] });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/importar`);
      // A PDF saved under a workbook's name.
      await input(page, 'archivo').setInputFiles({ name: 'programa.xlsx', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n') });
      await page.getByRole('button', { name: 'Comprobar' }).click();
      const report = page.getByTestId('informe');
      await report.getByText('1 problema: no se guardó nada.', { exact: false }).waitFor();
      const problem = report.getByLabel('Problema');
      assert.match(await problem.innerText(), /programa\.xlsx[\s\S]*no es un libro \.xlsx válido\./i);
      await screenshot(page, `importar-archivo-ilegible-${width}`);
      await fits(page, `importar-archivo-ilegible-${width}`, width);
      await accessible(page, `importar-archivo-ilegible-${width}`);

      // Choosing other files leaves the report as it is; checking them replaces it, problems and all.
      await input(page, 'archivo').setInputFiles(fixture('catalogo.xlsx'));
      await page.getByTestId('archivos-elegidos').getByText(/^catalogo\.xlsx \(< 0,1 MB\)$/).waitFor();
      assert.match(await problem.innerText(), /programa\.xlsx/);
      // The first test stored this catalogue: its records are left as they are.
      await page.getByRole('combobox', { name: 'Registros que ya existen' }).click();
      await page.getByRole('option', { name: 'Dejarlos como están' }).click();
      await page.getByRole('button', { name: 'Comprobar' }).click();
      await report.getByText('Sin problemas.', { exact: false }).waitFor();
      assert.equal(await report.getByText('programa.xlsx').count(), 0);
      assert.deepEqual(await service.api.list('/categorias'), stored, 'a check stores nothing');

      // The service out of reach is the report's problem too, not a notification that goes.
      await page.route('**/importar?*', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Comprobar' }).click();
      await report.getByText('No se pudo contactar con el servicio. Compruebe la conexión e inténtelo de nuevo.').waitFor();
      assert.match(await problem.innerText(), /catalogo\.xlsx/);
      await page.unroute('**/importar?*');
      await s.close();
    }
  });

  it('when "Exportar todo" is clicked, then the catalogue downloads as a workbook with a sheet per resource', TIMEOUT, async () => {
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/importar`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar todo' }).click()]);
    assert.match(download.suggestedFilename(), /^cartelera-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const sheets = await readXlsxFile(await download.path());
    assert.deepEqual(sheets.map((sheet) => sheet.sheet), ['Categorías', 'Películas', 'Obras', 'Eventos urbanos', 'Artistas', 'Participaciones', 'Lugares', 'Funciones', 'Imágenes']);
    // LibreOffice's own format, from the button's menu.
    await page.getByRole('button', { name: 'Elegir el formato' }).click();
    const [ods] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Libro de LibreOffice (.ods)' }).click()]);
    assert.match(ods.suggestedFilename(), /^cartelera-\d{4}-\d{2}-\d{2}\.ods$/);
    assert.equal(strFromU8(unzipSync(readFileSync(await ods.path())).mimetype ?? new Uint8Array()), 'application/vnd.oasis.opendocument.spreadsheet');
    await s.close();
  });

  it('when the page is opened on a phone (360 px) and on a desktop, then it fits, is in Spanish and labels its inputs', TIMEOUT, async () => {
    for (const width of [360, 1280]) {
      const s = await session({ width });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/importar`);
      await page.getByRole('heading', { name: 'Importar', exact: true }).waitFor();
      await screenshot(page, `importar-${width}`);
      await fits(page, `importar-${width}`, width);
      const untranslated = /\|\|\|\||\b(?:ra|resources|cartelera)\.[a-z_]+\.[\w.]+/i.exec(await page.locator('body').innerText());
      assert.equal(untranslated, null, `${width}: text left untranslated`);
      await s.close();
    }
  });
});

/**
 * A workbook edited as in a spreadsheet: each text cell `from` now reads `to`, every other byte of
 * every part as it was. Fails unless each `from` is the whole text of exactly one cell.
 */
function editedWorkbook(bytes: Buffer, edits: [from: string, to: string][]): Buffer {
  const parts = unzipSync(bytes);
  const escaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  for (const [from, to] of edits) {
    // A cell's text is the whole of an element <t> (or <t xml:space="preserve">).
    const [cell, edited] = [`>${escaped(from)}</t>`, `>${escaped(to)}</t>`];
    let found = 0;
    for (const [name, part] of Object.entries(parts)) {
      const pieces = name.endsWith('.xml') ? strFromU8(part).split(cell) : [];
      if (pieces.length < 2) continue;
      found += pieces.length - 1;
      parts[name] = strToU8(pieces.join(edited));
    }
    assert.equal(found, 1, `one cell reads ${from}`);
  }
  return Buffer.from(zipSync(parts));
}

// The round trip as docs/admin.md tells it, step by step: Exportar todo, edit the workbook, Comprobar, Importar.
describe('the admin\'s round trip', () => {
  let service: Started;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.cleanUp();
  });

  it('when the catalogue is exported, one title and one sinopsis are edited in the workbook and it is imported with "Actualizarlos con los del archivo", then exactly those two cells change, in the lists, the pages and Cambios recientes, at 360 and 1280 px', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Drama' });
    const cienaga = await service.api.create('/peliculas', { titulo: 'La ciénaga', sipnosis: 'Salta, en verano.', duracion: 103, categoria_id: categoria.id });
    // Written by Excel, a cell of several lines: the API stores its CRLF as sent.
    const relatos = await service.api.create('/peliculas', { titulo: 'Relatos salvajes', sipnosis: 'Seis historias.\r\nVenganza y humor negro.', duracion: 122, categoria_id: categoria.id });
    const zama = await service.api.create('/peliculas', { titulo: 'Zama', sipnosis: 'Un funcionario espera.', duracion: 115, categoria_id: categoria.id });
    const [last] = await service.api.list('/cambios?_sort=-id&_limit=1');
    const edits: [string, string][] = [
      ['La ciénaga', 'La ciénaga (2001)'],
      ['Un funcionario espera.', 'Un funcionario espera su traslado.'],
    ];

    // Steps 1 to 4, on a phone and on a desktop: the workbook downloads, and Comprobar tells what would change, storing nothing.
    for (const width of [360, 1280]) {
      const s = await session({ width, timezoneId: 'America/Argentina/Buenos_Aires' });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/importar`);
      await page.getByRole('heading', { name: 'Importar', exact: true }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar todo' }).click()]);
      assert.match(download.suggestedFilename(), /^cartelera-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const name = download.suggestedFilename();
      const edited = editedWorkbook(readFileSync(await download.path()), edits);

      await input(page, 'archivo').setInputFiles({ name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: edited });
      await page.getByTestId('archivos-elegidos').getByText(name, { exact: false }).waitFor();
      await page.getByRole('combobox', { name: 'Registros que ya existen' }).click();
      await page.getByRole('option', { name: 'Actualizarlos con los del archivo' }).click();
      await page.getByRole('button', { name: 'Comprobar' }).click();
      const report = page.getByTestId('informe');
      await report.getByText('Sin problemas. Esto es lo que se guardaría (todavía no se guardó nada):').waitFor();
      const counts = report.getByRole(width === 360 ? 'list' : 'table', { name: 'Recurso' });
      if (width === 1280) {
        assert.deepEqual(await counts.locator('tbody tr').filter({ hasText: 'Películas' }).locator('td').allInnerTexts(), ['Películas', '0', '2', '1']);
      } else {
        assert.match(await counts.locator('li').filter({ hasText: 'Películas' }).innerText(), /^Recurso\s+Películas\s+Nuevos\s+0\s+Actualizados\s+2\s+Sin cambios\s+1$/);
      }
      await screenshot(page, `ida-y-vuelta-comprobar-${width}`);
      await fits(page, `ida-y-vuelta-comprobar-${width}`, width);
      assert.deepEqual(await service.api.list('/peliculas'), [cienaga, relatos, zama], 'Comprobar stores nothing');
      if (width === 360) {
        await s.close();
        continue;
      }

      // Step 5: Importar stores it, and says what it stored.
      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      await report.getByText('Se guardó todo. Esto es lo que se guardó:').waitFor();
      assert.deepEqual(await counts.locator('tbody tr').filter({ hasText: 'Películas' }).locator('td').allInnerTexts(), ['Películas', '0', '2', '1']);
      await screenshot(page, 'ida-y-vuelta-importado');

      // Step 6: the list shows the new title, the movie's page the new sinopsis.
      await page.getByRole('menuitem', { name: 'Películas' }).click();
      await page.getByRole('link', { name: 'La ciénaga (2001)' }).waitFor();
      await page.goto(`${service.base}/admin/#/peliculas/${zama.id}/show`);
      await page.getByText('Un funcionario espera su traslado.', { exact: true }).waitFor();
      await s.close();
    }
    assert.deepEqual(await service.api.list('/peliculas'), [
      { ...cienaga, titulo: 'La ciénaga (2001)' },
      relatos,
      { ...zama, sipnosis: 'Un funcionario espera su traslado.' },
    ]);

    // Step 7: Cambios recientes holds those two modifications, and nothing for the sinopsis written with CRLF.
    const changes = await service.api.list(`/cambios?id_gte=${Number(last?.id) + 1}`);
    assert.deepEqual(
      changes.map((c) => [c.recurso, c.clave, c.operacion, c.campos]),
      [
        ['peliculas', cienaga.id, 'modificacion', ['titulo']],
        ['peliculas', zama.id, 'modificacion', ['sipnosis']],
      ],
    );
    for (const width of [1280, 360]) {
      const s = await session({ width, timezoneId: 'America/Argentina/Buenos_Aires' });
      const page = await s.open();
      await page.goto(`${service.base}/admin/#/cambios`);
      const recent = page.getByRole(width === 360 ? 'list' : 'table', { name: 'Cambios recientes' });
      await recent.getByText('Título: La ciénaga → La ciénaga (2001)').waitFor();
      await recent.getByText('Sinopsis: Un funcionario espera. → Un funcionario espera su traslado.').waitFor();
      const shown = recent.locator(width === 360 ? 'li' : 'tbody tr');
      assert.equal(await shown.filter({ hasText: 'Modificación' }).count(), 2);
      assert.equal(await shown.filter({ hasText: 'Relatos salvajes' }).filter({ hasText: 'Modificación' }).count(), 0);
      await screenshot(page, `ida-y-vuelta-cambios-${width}`);
      await fits(page, `ida-y-vuelta-cambios-${width}`, width);
      await s.close();
    }
  });
});

describe('the admin\'s history, trash and recent changes', () => {
  let service: Started;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.cleanUp();
  });

  it('when a movie with artists is deleted and restored from the Papelera, then it and its participations are back with the same keys', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Drama' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'La ciénaga', sipnosis: 'Salta, en verano.', duracion: 103, categoria_id: categoria.id });
    await service.api.create('/artistas', { dni: 20111222, nombre: 'Graciela', apellido: 'Borges', tipo: 'actriz', descripcion: 'Actriz.' });
    await service.api.create('/artistas', { dni: 20333444, nombre: 'Mercedes', apellido: 'Morán', tipo: 'actriz', descripcion: 'Actriz.' });
    const participaciones = [
      await service.api.create('/participaciones', { artistas_dni: 20111222, tipo_evento: 'pelicula', evento_id: pelicula.id }),
      await service.api.create('/participaciones', { artistas_dni: 20333444, tipo_evento: 'pelicula', evento_id: pelicula.id }),
    ];
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/peliculas/${pelicula.id}`);
    await input(page, 'titulo').and(page.locator('[value="La ciénaga"]')).waitFor();
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.waitForURL(/#\/peliculas$/);
    assert.deepEqual(await service.api.list(`/peliculas?id=${pelicula.id}`), []);
    assert.deepEqual(await service.api.list('/participaciones'), []);

    await page.getByRole('menuitem', { name: 'Papelera' }).click();
    const row = page.getByRole('row').filter({ hasText: 'La ciénaga' });
    await screenshot(page, 'papelera');
    await row.getByRole('button', { name: 'Restaurar' }).click();
    await page.getByText('Se restauró «La ciénaga» (y 2 participaciones).').waitFor();
    await row.getByRole('link', { name: 'Ya restaurado: ver' }).waitFor();
    assert.deepEqual(await service.api.list(`/peliculas?id=${pelicula.id}`), [pelicula]);
    assert.deepEqual(await service.api.list('/participaciones'), participaciones);

    // A record that took no participations with it: its message speaks of it alone.
    const sinUso = await service.api.create('/categorias', { nombre: 'Sin uso' });
    await service.api.call('DELETE', `/categorias/${sinUso.id}`);
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Sin uso' }).getByRole('button', { name: 'Restaurar' }).click();
    await page.getByText('Se restauró «Sin uso».', { exact: true }).waitFor();
    assert.deepEqual(await service.api.list(`/categorias?id=${sinUso.id}`), [sinUso]);
    await s.close();
  });

  it('when an older version is restored from a record\'s Historial, then the record holds it again', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Teatro' });
    const obra = await service.api.create('/Obras', { titulo: 'La Celestina', descripcion: 'Tragicomedia.', duracion: 120, categoria_id: categoria.id });
    await service.api.call('PATCH', `/Obras/${obra.id}`, { duracion: 125 });
    await service.api.call('PATCH', `/Obras/${obra.id}`, { duracion: 130, descripcion: 'Otra.' });
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/Obras/${obra.id}/show`);
    const history = page.getByRole('table', { name: 'Historial' });
    await history.getByText('Duración (minutos): 125 → 130').waitFor();
    await screenshot(page, 'historial');
    // The first version: the creation, three rows down.
    await history.getByRole('row').nth(3).getByRole('button', { name: 'Restaurar esta versión' }).click();
    await page.getByText('Se restauró esa versión.').waitFor();
    assert.deepEqual(await service.api.list(`/Obras?id=${obra.id}`), [obra]);
    await history.getByText('Duración (minutos): 130 → 120').waitFor();
    await s.close();
  });

  it('when an older version is restored on the page of an artist and of a participation, then its If-Match is the record as shown, without what the page attached, and it saves', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Folclore' });
    const obra = await service.api.create('/Obras', { titulo: 'Zamba de Vargas', descripcion: 'Folclore.', duracion: 45, categoria_id: categoria.id });
    const artista = await service.api.create('/artistas', { dni: 23444555, nombre: 'Mercedes', apellido: 'Sosa', tipo: 'cantante', descripcion: 'La Negra.' });
    const participacion = await service.api.create('/participaciones', { artistas_dni: artista.dni, tipo_evento: 'obra', evento_id: obra.id });
    const otra = await service.api.create('/Obras', { titulo: 'Alfonsina y el mar', descripcion: 'Folclore.', duracion: 40, categoria_id: categoria.id });
    await service.api.call('PATCH', `/artistas/${String(artista.dni)}`, { tipo: 'cantora' });
    await service.api.call('PATCH', `/participaciones/${String(participacion.id)}`, { evento_id: otra.id });
    const s = await session();
    const page = await s.open();
    // An artist's page embeds the career, a participation's expands its artist and work: neither is in the record's ETag.
    const tipo = 'Tipo (actriz, director, cantante…)';
    const evento = 'Película, obra o evento';
    for (const [path, read, record, changed, restored] of [
      [`/artistas/${String(artista.dni)}`, `/artistas?dni=${String(artista.dni)}`, artista, `${tipo}: cantante → cantora`, `${tipo}: cantora → cantante`],
      [`/participaciones/${String(participacion.id)}`, `/participaciones?id=${String(participacion.id)}`, participacion, `${evento}: ${String(obra.id)} → ${String(otra.id)}`, `${evento}: ${String(otra.id)} → ${String(obra.id)}`],
    ] as const) {
      await page.goto(`${service.base}/admin/#${path}/show`);
      const history = page.getByRole('table', { name: 'Historial' });
      await history.getByText(changed).waitFor();
      const [shown] = await service.api.list(read);
      const [put] = await Promise.all([
        page.waitForRequest((request) => request.method() === 'PUT'),
        history.getByRole('row').nth(2).getByRole('button', { name: 'Restaurar esta versión' }).click(),
      ]);
      // The tag of the record as a lookup answers it (test/api/adminEtag.test.ts holds it to the service's).
      assert.equal(put.headers()['if-match'], etagOf(JSON.stringify(shown)), `${path}: If-Match`);
      await history.getByText(restored).waitFor();
      assert.deepEqual(await service.api.list(read), [record]);
    }
    await s.close();
  });

  it('when someone changes a record after its Historial was shown and an older version is restored, then the page says it changed and nothing is overwritten; reloaded, the restore goes through', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Animación' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'Anina', sipnosis: 'Una niña y su nombre.', duracion: 78, categoria_id: categoria.id });
    await service.api.call('PATCH', `/peliculas/${pelicula.id}`, { duracion: 80 });
    const s = await session({ refusals: [412] });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/peliculas/${pelicula.id}/show`);
    const history = page.getByRole('table', { name: 'Historial' });
    await history.getByText('Duración (minutos): 78 → 80').waitFor();
    await settled(page);

    // A colleague's edit, after the page was read.
    const colleague = { ...pelicula, duracion: 80, sipnosis: 'Una niña, su nombre y su escuela.' };
    assert.equal((await service.api.call('PUT', `/peliculas/${pelicula.id}`, colleague)).status, 200);
    // The creation, two rows down.
    await history.getByRole('row').nth(2).getByRole('button', { name: 'Restaurar esta versión' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Otra persona cambió este registro mientras usted lo editaba.' });
    await alert.getByText('No se restauró nada.', { exact: false }).waitFor();
    await screenshot(page, 'historial-conflicto');
    assert.deepEqual(await service.api.list(`/peliculas?id=${pelicula.id}`), [colleague], "the colleague's edit stays");
    assert.equal((await service.api.list(`/cambios?recurso=peliculas&clave=${pelicula.id}`)).length, 3, 'the refused restore logged nothing');

    await alert.getByRole('button', { name: 'Recargar el registro' }).click();
    await alert.waitFor({ state: 'detached' });
    await page.getByText('Una niña, su nombre y su escuela.', { exact: true }).waitFor();
    await history.getByText('Sinopsis: Una niña y su nombre. → Una niña, su nombre y su escuela.').waitFor();
    await history.getByRole('row').nth(3).getByRole('button', { name: 'Restaurar esta versión' }).click();
    await page.getByText('Se restauró esa versión.').waitFor();
    assert.deepEqual(await service.api.list(`/peliculas?id=${pelicula.id}`), [pelicula]);
    await s.close();
  });

  it('when a change is made through the API, then Cambios recientes shows it without a reload, a participation\'s kind in words', TIMEOUT, async () => {
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/cambios`);
    // The table, or what an empty log shows instead.
    await page.getByText('Los últimos cambios de todo el catálogo, al instante.').waitFor();
    await settled(page);
    const categoria = await service.api.create('/categorias', { nombre: 'Carnaval' });
    const row = page.getByRole('row').filter({ hasText: 'Carnaval' });
    await row.waitFor();
    assert.match(await row.innerText(), /Alta/);
    await service.api.call('PUT', `/categorias/${categoria.id}`, { nombre: 'Carnaval y murga' });
    await page.getByText('Nombre: Carnaval → Carnaval y murga').waitFor();
    // A participation's kind as people read it, not its code.
    const pelicula = await service.api.create('/peliculas', { titulo: 'Carnaval de Oruro', sipnosis: 'Diablada.', duracion: 80, categoria_id: categoria.id });
    const obra = await service.api.create('/Obras', { titulo: 'Murga del Bajo', descripcion: 'Murga.', duracion: 50, categoria_id: categoria.id });
    await service.api.create('/artistas', { dni: 27444555, nombre: 'Pedro', apellido: 'Ruiz', tipo: 'murguista', descripcion: 'Murga.' });
    const participacion = await service.api.create('/participaciones', { artistas_dni: 27444555, tipo_evento: 'pelicula', evento_id: pelicula.id });
    await service.api.call('PUT', `/participaciones/${participacion.id}`, { artistas_dni: 27444555, tipo_evento: 'obra', evento_id: obra.id });
    await page.getByText('Tipo de evento: Película → Obra').waitFor();
    await screenshot(page, 'cambios-recientes');

    // Filtered by resource, as react-admin filters a list (in the address too): that resource's changes alone, still live.
    const recent = page.getByRole('table', { name: 'Cambios recientes' });
    await page.getByRole('combobox', { name: 'Recurso' }).click();
    await page.getByRole('option', { name: 'Participaciones' }).click();
    await page.waitForURL(/recurso/);
    await recent.getByRole('row').filter({ hasText: 'Carnaval de Oruro' }).waitFor({ state: 'detached' });
    await service.api.create('/categorias', { nombre: 'Comparsa' });
    await service.api.call('DELETE', `/participaciones/${participacion.id}`);
    await recent.getByText(`Baja #${String(participacion.id)}`, { exact: true }).waitFor();
    assert.deepEqual(new Set(await recent.locator('tbody tr td:nth-child(3)').allInnerTexts()), new Set(['Participación']));
    assert.equal(await recent.getByText('Comparsa').count(), 0);
    await s.close();
  });

  it('when a record has more changes than a page holds, then its Historial pages through them, newest first, and each version but the current one can be restored', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Ópera 0' });
    for (let i = 1; i <= 11; i++) await service.api.call('PUT', `/categorias/${categoria.id}`, { nombre: `Ópera ${i}` });
    const s = await session();
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/categorias/${categoria.id}/show`);
    const history = page.getByRole('table', { name: 'Historial' });
    await history.getByText('Nombre: Ópera 10 → Ópera 11').waitFor();
    const rows = history.locator('tbody tr');
    const restore = history.getByRole('button', { name: 'Restaurar esta versión' });
    assert.equal(await rows.count(), 10);
    assert.equal(await rows.first().getByRole('button').count(), 0, 'the current version has nothing to restore');
    assert.equal(await restore.count(), 9);
    await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
    await history.getByText('Nombre: Ópera 0 → Ópera 1').waitFor();
    assert.deepEqual(await rows.locator('td:nth-child(3)').allInnerTexts(), ['Modificación\nNombre: Ópera 0 → Ópera 1', 'Alta']);
    assert.equal(await restore.count(), 2);
    await restore.last().click();
    await page.getByText('Se restauró esa versión.').waitFor();
    assert.deepEqual(await service.api.list(`/categorias?id=${categoria.id}`), [categoria]);
    await s.close();
  });
});

describe('the admin in an English-language browser in Buenos Aires', () => {
  const browserIn = { timezoneId: 'America/Argentina/Buenos_Aires', locale: 'en-US' };
  let service: Started;
  let categoria: Record<string, unknown>;
  before(async () => {
    service = await startService();
    categoria = await service.api.create('/categorias', { nombre: 'Carnaval' });
  });
  after(async () => {
    await service?.cleanUp();
  });
  const listUrl = (resource: string, filter: Record<string, unknown>, sort?: [string, 'ASC' | 'DESC']) =>
    `${service.base}/admin/#/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}${sort ? `&sort=${sort[0]}&order=${sort[1]}` : ''}`;

  it('when dates are typed in an event\'s form, then they are read as Spanish speakers write them: a day alone is the whole day, a time is the wall clock, and what is no date is refused in Spanish', TIMEOUT, async () => {
    for (const width of [1280, 360]) {
      const s = await session({ ...browserIn, width });
      const page = await s.open();
      // Each form on a fresh page: on a phone, the last save's notification would lie over its buttons.
      const openAfresh = async (path: string) => {
        await page.goto(`${service.base}/admin/#${path}`);
        await page.reload();
      };
      const create = async (titulo: string, fecha: string) => {
        await openAfresh('/eventosUrbanos/create');
        await input(page, 'titulo').fill(titulo);
        await input(page, 'descripcion').fill('Tambores.');
        await input(page, 'fecha').fill(fecha);
        await input(page, 'lugar').fill('Barrio Sur');
        await pick(page, 'categoria_id', 'carnaval', 'Carnaval');
        await save(page);
        await page.waitForURL(/#\/eventosUrbanos\/\d+\/show$/);
        const [created] = await service.api.list(`/eventosUrbanos?titulo=${encodeURIComponent(titulo)}`);
        return created;
      };
      const diaEntero = await create(`Navidad ${width}`, '25/12/2026');
      assert.equal(diaEntero?.fecha, '2026-12-25T00:00:00.000+00:00');
      await page.locator('#main-content').getByText('25/12/2026', { exact: true }).waitFor();
      const conHora = await create(`Nochebuena ${width}`, '24/12/2026 21:30');
      assert.equal(conHora?.fecha, '2026-12-24T21:30:00.000+00:00');
      await page.locator('#main-content').getByText('24/12/2026 21:30', { exact: true }).waitFor();

      // The form shows the date as it is written here, and refuses what is no date without saving.
      await openAfresh(`/eventosUrbanos/${conHora?.id}`);
      await input(page, 'titulo').and(page.locator(`[value="Nochebuena ${width}"]`)).waitFor();
      assert.equal(await input(page, 'fecha').inputValue(), '24/12/2026 21:30');
      assert.equal(await input(page, 'fecha').getAttribute('type'), 'text');
      // Enter saves: a click would leave the pointer over the refusal's notification, which hovering keeps open over the phone's Save.
      for (const typed of ['31/02/2026', '24/12/2026 24:00', '12/24/2026 9:30 PM']) {
        await input(page, 'fecha').fill(typed);
        await input(page, 'fecha').press('Enter');
        await page.locator('[name="fecha"][aria-invalid="true"]').waitFor();
        assert.equal(await helperText(page, 'fecha'), 'No es una fecha: escríbala como 25/12/2026, o con la hora, 25/12/2026 21:30.', typed);
      }
      await screenshot(page, `evento-fecha-invalida-${width}`);
      assert.equal((await service.api.list(`/eventosUrbanos?id=${conHora?.id}`))[0]?.fecha, '2026-12-24T21:30:00.000+00:00', 'nothing was saved');
      await input(page, 'fecha').fill('24/12/26 9:45 p. m.');
      await input(page, 'fecha').press('Enter');
      await page.waitForURL(/\/show$/);
      assert.equal((await service.api.list(`/eventosUrbanos?id=${conHora?.id}`))[0]?.fecha, '2026-12-24T21:45:00.000+00:00');
      await s.close();
    }
  });

  it('when the events are filtered by Desde and Hasta typed in Spanish, then the list holds whole days as entered, the last one included', TIMEOUT, async () => {
    const evento = (titulo: string, fecha: string) =>
      service.api.create('/eventosUrbanos', { titulo, descripcion: 'Tambores.', fecha, lugar: 'Barrio Sur', categoria_id: categoria.id });
    await evento('Llamadas, víspera', '2027-02-19T23:30:00Z');
    await evento('Llamadas, primera noche', '2027-02-20T22:00:00Z');
    await evento('Llamadas, día entero', '2027-02-20');
    await evento('Llamadas, segunda noche', '2027-02-21T00:00:00Z');
    for (const width of [1280, 360]) {
      const s = await session({ ...browserIn, width });
      const page = await s.open();
      await page.goto(listUrl('eventosUrbanos', { q: 'llamadas' }));
      await page.getByText('Llamadas, víspera').waitFor();
      // Each filter applies before the next is added, as a person's pace allows.
      for (const [label, name, leaves] of [['Desde', 'fecha_gte', 'víspera'], ['Hasta', 'fecha_lte', 'segunda noche']] as const) {
        await page.getByRole('button', { name: 'Agregar filtro' }).click();
        await page.getByRole('menuitemcheckbox', { name: label }).click();
        await input(page, name).fill('20/02/2027');
        await page.getByText(`Llamadas, ${leaves}`).waitFor({ state: 'detached' });
      }
      await page.getByText('Llamadas, primera noche').waitFor();
      await page.getByText('Llamadas, día entero').waitFor();
      await screenshot(page, `eventos-desde-hasta-${width}`);
      // A day that does not exist is said so, and filters nothing.
      await input(page, 'fecha_lte').fill('31/02/2027');
      await page.locator('[name="fecha_lte"][aria-invalid="true"]').waitFor();
      assert.equal(await helperText(page, 'fecha_lte'), 'No es un día: escríbalo como 25/12/2026.');
      await s.close();
    }
  });

  it('when each list is exported with a filter and a sort, then the workbook holds only the rows it shows, in its order; CSV and .ods when chosen', TIMEOUT, async () => {
    const otra = await service.api.create('/categorias', { nombre: 'Cine mudo' });
    await service.api.create('/categorias', { nombre: 'Carnaval de antes' });
    const pelicula = (titulo: string, duracion: number, categoria_id: unknown) =>
      service.api.create('/peliculas', { titulo, sipnosis: 'Sombras.', duracion, categoria_id });
    const peliculas = [await pelicula('Alba', 90, categoria.id), await pelicula('Brisa', 100, categoria.id), await pelicula('Ceniza', 95, otra.id)];
    const obra = (titulo: string, duracion: number) => service.api.create('/Obras', { titulo, descripcion: 'Teatro.', duracion, categoria_id: categoria.id });
    const obras = [await obra('Uno', 60), await obra('Dos', 120), await obra('Tres', 130)];
    await service.api.create('/eventosUrbanos', { titulo: 'Corso, víspera', descripcion: 'Carrozas.', fecha: '2027-03-05T23:30:00Z', lugar: 'Avenida', categoria_id: categoria.id });
    await service.api.create('/eventosUrbanos', { titulo: 'Corso, noche', descripcion: 'Carrozas.', fecha: '2027-03-06T22:00:00Z', lugar: 'Avenida', categoria_id: categoria.id });
    await service.api.create('/eventosUrbanos', { titulo: 'Corso, día', descripcion: 'Carrozas.', fecha: '2027-03-06', lugar: 'Avenida', categoria_id: categoria.id });
    const artista = (dni: number, nombre: string, apellido: string) => service.api.create('/artistas', { dni, nombre, apellido, tipo: 'actriz', descripcion: 'Actriz.' });
    await artista(30111222, 'Ana', 'Prada');
    await artista(30111333, 'Luisa', 'Prada');
    await artista(30111444, 'Eva', 'Sol');
    for (const o of obras.slice(0, 2)) await service.api.create('/participaciones', { artistas_dni: 30111222, tipo_evento: 'obra', evento_id: o.id });
    await service.api.create('/participaciones', { artistas_dni: 30111222, tipo_evento: 'pelicula', evento_id: peliculas[0]?.id });

    // Each list as a member of staff filters and sorts it, and the same list as the API answers it.
    const lists: { resource: string; filter: Record<string, unknown>; sort: [string, 'ASC' | 'DESC']; api: string; first: string }[] = [
      { resource: 'peliculas', filter: { categoria_id: categoria.id }, sort: ['titulo', 'DESC'], api: `categoria_id=${categoria.id}&_sort=titulo&_order=desc`, first: 'id' },
      { resource: 'Obras', filter: { duracion_gte: 100 }, sort: ['duracion', 'DESC'], api: 'duracion_gte=100&_sort=duracion&_order=desc', first: 'id' },
      { resource: 'eventosUrbanos', filter: { q: 'corso', fecha_gte: '2027-03-06', fecha_lte: '2027-03-06' }, sort: ['fecha', 'DESC'], api: 'q=corso&fecha_gte=2027-03-06&fecha_lte=2027-03-06T23:59:59.999Z&_sort=fecha&_order=desc', first: 'id' },
      { resource: 'artistas', filter: { q: 'prada' }, sort: ['nombre', 'DESC'], api: 'q=prada&_sort=nombre&_order=desc', first: 'dni' },
      { resource: 'participaciones', filter: { tipo_evento: 'obra' }, sort: ['id', 'DESC'], api: 'tipo_evento=obra&_sort=id&_order=desc', first: 'id' },
      { resource: 'categorias', filter: { q: 'carnaval' }, sort: ['nombre', 'DESC'], api: 'q=carnaval&_sort=nombre&_order=desc', first: 'id' },
    ];
    for (const width of [1280, 360]) {
      const s = await session({ ...browserIn, width });
      const page = await s.open();
      for (const { resource, filter, sort, api, first } of lists) {
        const expected = await service.api.list(`/${resource}?${api}`);
        const all = await service.api.list(`/${resource}`);
        assert.ok(expected.length >= 2 && expected.length < all.length, `${resource}: the filter picks some records, more than one`);
        await page.goto(listUrl(resource, filter, sort));
        await page.locator('#main-content').getByText(`1-${expected.length} de ${expected.length}`).waitFor();
        await settled(page);
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Exportar' }).click()]);
        assert.match(download.suggestedFilename(), new RegExp(`^cartelera-${resource}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
        const sheets = await readXlsxFile(await download.path());
        assert.equal(sheets.length, 1, `${resource}: one sheet`);
        const [, ...rows] = sheets[0]?.data ?? [];
        assert.deepEqual(rows.map((row) => row[0]), expected.map((r) => r[first]), `${resource} at ${width} px: the rows shown, in their order`);
      }

      // Staff's CSV and LibreOffice's workbook, chosen from the button's menu, hold the same list.
      const { resource, filter, sort, api } = lists[0] ?? assert.fail();
      const expected = await service.api.list(`/${resource}?${api}`);
      await page.goto(listUrl(resource, filter, sort));
      await page.locator('#main-content').getByText(`1-${expected.length} de ${expected.length}`).waitFor();
      await page.getByRole('button', { name: 'Elegir el formato' }).click();
      await screenshot(page, `exportar-formatos-${width}`);
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV para planillas (;)' }).click()]);
      assert.match(csv.suggestedFilename(), /\.csv$/);
      const text = readFileSync(await csv.path(), 'utf8');
      assert.ok(text.startsWith('\uFEFFId;Título;'), `a BOM, then the labels between ';': ${text.slice(0, 40)}`);
      assert.deepEqual(text.trimEnd().split('\r\n').slice(1).map((line) => Number(line.split(';')[0])), expected.map((p) => p.id));
      await page.getByRole('button', { name: 'Elegir el formato' }).click();
      const [ods] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Libro de LibreOffice (.ods)' }).click()]);
      assert.match(ods.suggestedFilename(), /\.ods$/);
      const content = strFromU8(unzipSync(readFileSync(await ods.path()))['content.xml'] ?? new Uint8Array());
      assert.deepEqual([...content.matchAll(/<text:p>(Alba|Brisa|Ceniza)<\/text:p>/g)].map((m) => m[1]), ['Brisa', 'Alba']);
      await s.close();
    }
  });
});

describe('the admin\'s venues and showtimes', () => {
  let service: Started;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.cleanUp();
  });
  const base = () => `${service.base}/admin/#`;

  it('when a venue is created with its coordinates pasted as "lat, lon", then the API holds them, its page links the point on OpenStreetMap and the list finds it by name', TIMEOUT, async () => {
    await service.api.create('/lugares', { nombre: 'Cine Gaumont', direccion: 'Av. Rivadavia 1635, Buenos Aires' });
    const s = await session();
    const page = await s.open();
    await page.goto(`${base()}/lugares/create`);
    await input(page, 'nombre').fill('Teatro San Martín');
    await input(page, 'direccion').fill('Av. Corrientes 1530, Buenos Aires');
    await input(page, 'coordenadas').fill('-34.6037, -58.3816');
    assert.equal(await input(page, 'latitud').inputValue(), '-34.6037');
    assert.equal(await input(page, 'longitud').inputValue(), '-58.3816');
    await save(page);
    await page.waitForURL(/#\/lugares\/\d+\/show$/);
    const [lugar] = await service.api.list('/lugares?nombre=Teatro%20San%20Mart%C3%ADn');
    assert.deepEqual([lugar?.latitud, lugar?.longitud, lugar?.accesible], [-34.6037, -58.3816, false]);
    const osm = page.getByRole('link', { name: /OpenStreetMap/ });
    assert.equal(await osm.getAttribute('href'), 'https://www.openstreetmap.org/?mlat=-34.6037&mlon=-58.3816#map=17/-34.6037/-58.3816');
    await page.goto(`${base()}/lugares`);
    // The list first shows both venues; then the filter leaves one.
    const rows = page.locator('#main-content tbody tr');
    await rows.filter({ hasText: 'Gaumont' }).waitFor();
    await input(page, 'q').fill('san martin');
    await rows.filter({ hasText: 'Gaumont' }).waitFor({ state: 'detached' });
    assert.deepEqual(await page.locator('#main-content tbody tr').allInnerTexts().then((rows) => rows.map((r) => r.includes('Teatro San Martín'))), [true]);
    await s.close();
  });

  it('when a movie\'s page lists its showtimes, then upcoming ones come first; a cancel is undone from its notification, a postpone is saved, and a series is previewed, then created whole', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Estrenos' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'La ciénaga', sipnosis: 'Un verano.', duracion: 103, categoria_id: categoria.id });
    const lugar = await service.api.create('/lugares', { nombre: 'Cine Lorca', direccion: 'Av. Corrientes 1428, Buenos Aires' });
    const funcion = (inicio: string) => service.api.create('/funciones', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio });
    await funcion('2020-01-01T20:00');
    const soon = await funcion('2029-06-01T20:00');
    await funcion('2030-01-01T20:00');
    const s = await session();
    const page = await s.open();
    await page.goto(`${base()}/peliculas/${pelicula.id}/show`);
    const rows = page.getByRole('table', { name: 'Funciones' }).locator('tbody tr');
    await rows.first().waitFor();
    assert.deepEqual((await rows.allInnerTexts()).map((r) => r.slice(0, 16)), ['01/06/2029 20:00', '01/01/2030 20:00', '01/01/2020 20:00']);

    await page.getByRole('button', { name: 'Cancelar la función del 01/06/2029 20:00' }).click();
    await page.getByText('Función del 01/06/2029 20:00: Cancelada.').waitFor();
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await page.getByRole('button', { name: 'Cancelar la función del 01/06/2029 20:00' }).waitFor();
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/funciones/${soon.id}`));
    await page.getByRole('button', { name: 'Aplazar la función del 01/06/2029 20:00' }).click();
    assert.equal((await saved).status(), 200);
    const estados = await service.api.list(`/funciones?evento_id=${pelicula.id}&_sort=inicio`);
    assert.deepEqual(estados.map((f) => f.estado), ['programada', 'aplazada', 'programada'], 'the undone cancel sent nothing');

    await page.getByRole('link', { name: 'Agregar una serie' }).click();
    await page.waitForURL(/#\/serie$/);
    await pick(page, 'lugar_id', 'lorca', 'Cine Lorca');
    await input(page, 'desde').fill('01/03/2030');
    await input(page, 'hasta').fill('14/03/2030');
    await page.getByLabel('Lunes').check();
    await page.getByLabel('Miércoles').check();
    await input(page, 'horas').fill('20:00, 22:30');
    await input(page, 'excepto').fill('04/03/2030');
    const preview = page.getByRole('list', { name: 'Funciones que se crearán' });
    await page.getByText('Se crearán 6 funciones:').waitFor();
    assert.deepEqual(await preview.locator('li').allInnerTexts(), [
      '06/03/2030 20:00', '06/03/2030 22:30', '11/03/2030 20:00', '11/03/2030 22:30', '13/03/2030 20:00', '13/03/2030 22:30',
    ]);
    await screenshot(page, 'serie-1280');
    await page.getByRole('button', { name: 'Crear las funciones' }).click();
    await page.waitForURL(new RegExp(`#/peliculas/${pelicula.id}/show$`));
    const serie = await service.api.list(`/funciones?evento_id=${pelicula.id}&inicio_gte=2030-03-01&_sort=inicio`);
    assert.deepEqual(serie.map((f) => f.inicio), [
      '2030-03-06T20:00:00.000+00:00', '2030-03-06T22:30:00.000+00:00', '2030-03-11T20:00:00.000+00:00',
      '2030-03-11T22:30:00.000+00:00', '2030-03-13T20:00:00.000+00:00', '2030-03-13T22:30:00.000+00:00',
    ]);
    await s.close();
  });

  it('when the Cartelera is opened, then this week\'s showtimes are under a heading per day, each with its time and venue, and the venue and kind filters keep to theirs', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Cartel' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'Zama', sipnosis: 'Un funcionario.', duracion: 115, categoria_id: categoria.id });
    const obra = await service.api.create('/Obras', { titulo: 'Hamlet', descripcion: 'Tragedia.', duracion: 180, categoria_id: categoria.id });
    const sala = await service.api.create('/lugares', { nombre: 'Sala Lugones', direccion: 'Av. Corrientes 1530' });
    const teatro = await service.api.create('/lugares', { nombre: 'Teatro Cervantes', direccion: 'Libertad 815' });
    // Days by the service's zone (UTC here): tomorrow and the day after, within the default week.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    await service.api.create('/funciones', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: sala.id, inicio: `${day(1)}T18:00` });
    await service.api.create('/funciones', { tipo_evento: 'obra', evento_id: obra.id, lugar_id: teatro.id, inicio: `${day(2)}T21:30`, estado: 'agotada' });
    const weekday = (n: number) => new Intl.DateTimeFormat('es', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${day(n)}T00:00:00Z`));
    const heading = (n: number) => weekday(n).charAt(0).toUpperCase() + weekday(n).slice(1);
    const s = await session();
    const page = await s.open();
    await page.goto(`${base()}/cartelera`);
    const days = page.locator('#main-content section');
    await days.filter({ hasText: 'Hamlet' }).waitFor();
    const shown = async () => (await days.allInnerTexts()).map((text) => text.split('\n').filter((line) => line.trim() !== ''));
    const zama = [heading(1), 'Zama', '18:00 · Sala Lugones', 'Película · Cartel'];
    const hamlet = [heading(2), 'Hamlet', '21:30 · Teatro Cervantes', 'Obra · Cartel · Agotada'];
    assert.deepEqual(await shown(), [zama, hamlet]);
    await screenshot(page, 'cartelera-1280');
    await pick(page, 'lugar_id', 'cervantes', 'Teatro Cervantes');
    await days.filter({ hasText: 'Zama' }).waitFor({ state: 'detached' });
    assert.equal((await shown()).length, 1);
    await page.getByRole('combobox', { name: 'Tipo de evento' }).click();
    await page.getByRole('option', { name: 'Película' }).click();
    await page.getByText('No hay funciones esta semana con estos filtros.').waitFor();
    await s.close();
  });

  it('when an urban event has no showtime, then its page makes the first from its fecha and lugar: at the venue of that name, or at a new one with the address typed', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Al aire libre' });
    const evento = (titulo: string, lugar: string) =>
      service.api.create('/eventosUrbanos', { titulo, descripcion: 'Gratis.', fecha: '2030-05-25T11:00', lugar, categoria_id: categoria.id });
    const primero = await evento('Desfile', 'Plaza de Mayo');
    const segundo = await evento('Feria', 'plaza de mayo ');
    const s = await session();
    const page = await s.open();
    await page.goto(`${base()}/eventosUrbanos/${primero.id}/show`);
    await page.getByText('No hay un lugar llamado «Plaza de Mayo»').waitFor();
    await input(page, 'direccion').fill('Av. Hipólito Yrigoyen s/n, Buenos Aires');
    await page.getByRole('button', { name: 'Crear su primera función' }).click();
    await page.getByRole('table', { name: 'Funciones' }).getByText('25/05/2030 11:00').waitFor();
    const [plaza] = await service.api.list('/lugares?nombre=Plaza%20de%20Mayo');
    assert.equal(plaza?.direccion, 'Av. Hipólito Yrigoyen s/n, Buenos Aires');

    await page.goto(`${base()}/eventosUrbanos/${segundo.id}/show`);
    await page.getByText('Su fecha y su lugar dan la primera, en «plaza de mayo».').waitFor();
    assert.equal(await input(page, 'direccion').count(), 0, 'no address asked for a venue that exists');
    await page.getByRole('button', { name: 'Crear su primera función' }).click();
    await page.getByRole('table', { name: 'Funciones' }).getByText('25/05/2030 11:00').waitFor();
    const funciones = await service.api.list('/funciones?tipo_evento=eventoUrbano&_sort=evento_id');
    assert.deepEqual(funciones.map((f) => [f.evento_id, f.lugar_id, f.inicio]), [
      [primero.id, plaza?.id, '2030-05-25T11:00:00.000+00:00'],
      [segundo.id, plaza?.id, '2030-05-25T11:00:00.000+00:00'],
    ]);
    assert.equal((await service.api.list('/lugares?nombre=plaza%20de%20mayo')).length, 1, 'one venue of that name');
    await s.close();
  });
});

describe('the admin of a service in Europe/Madrid, read from a browser in another zone', () => {
  let service: Started;
  before(async () => {
    service = await startService({ TIMEZONE: 'Europe/Madrid' });
  });
  after(async () => {
    await service?.cleanUp();
  });

  it('when a movie\'s page lists its showtimes, then upcoming and past follow the city\'s clock, not the browser\'s; a series preview shows a start in the spring-forward gap where the service creates it', TIMEOUT, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Horario de verano' });
    const pelicula = await service.api.create('/peliculas', { titulo: 'Volver', sipnosis: 'Raimunda.', duracion: 121, categoria_id: categoria.id });
    const lugar = await service.api.create('/lugares', { nombre: 'Cine Doré', direccion: 'Calle de Santa Isabel 3, Madrid' });
    // Before and after now in Madrid; the browser's zone (UTC+14) is past all three, and would list them latest first.
    const madridIn = (hours: number) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .format(new Date(Date.now() + hours * 3_600_000))
        .replace(' ', 'T');
    const funcion = (inicio: string) => service.api.create('/funciones', { tipo_evento: 'pelicula', evento_id: pelicula.id, lugar_id: lugar.id, inicio });
    const past = await funcion(madridIn(-2));
    const later = await funcion(madridIn(3));
    const upcoming = await funcion(madridIn(2));
    const shown = (f: Record<string, unknown>) => String(f.inicio).replace(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}).*/, '$3/$2/$1 $4');
    const s = await session({ timezoneId: 'Pacific/Kiritimati' });
    const page = await s.open();
    await page.goto(`${service.base}/admin/#/peliculas/${pelicula.id}/show`);
    const rows = page.getByRole('table', { name: 'Funciones' }).locator('tbody tr');
    await rows.first().waitFor();
    assert.deepEqual((await rows.allInnerTexts()).map((r) => r.slice(0, 16)), [shown(upcoming), shown(later), shown(past)]);

    await page.getByRole('link', { name: 'Agregar una serie' }).click();
    await page.waitForURL(/#\/serie$/);
    await pick(page, 'lugar_id', 'doré', 'Cine Doré');
    // 31/03/2030 is the Sunday Madrid's clocks jump from 02:00 to 03:00.
    await input(page, 'desde').fill('31/03/2030');
    await input(page, 'hasta').fill('31/03/2030');
    await page.getByLabel('Domingo').check();
    await input(page, 'horas').fill('02:30, 20:00');
    const preview = page.getByRole('list', { name: 'Funciones que se crearán' });
    await page.getByText('Se crearán 2 funciones:').waitFor();
    assert.deepEqual(await preview.locator('li').allInnerTexts(), ['31/03/2030 03:30', '31/03/2030 20:00']);
    await page.getByRole('button', { name: 'Crear las funciones' }).click();
    await page.waitForURL(new RegExp(`#/peliculas/${pelicula.id}/show$`));
    const serie = await service.api.list(`/funciones?evento_id=${pelicula.id}&inicio_gte=2030-03-01&_sort=inicio`);
    assert.deepEqual(serie.map(shown), ['31/03/2030 03:30', '31/03/2030 20:00']);
    await s.close();
  });
});
