// Every screen of the admin checked by axe against WCAG 2.2 AA, on a phone (360 px) and on a desktop
// (1280 px): lists, records' pages (with their Historial), forms, Cambios recientes, the Papelera,
// the import page with a report, the write-key dialog and the error states. One browser, one page
// per width, the screens in sequence.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, openPage, startService } from './browser.js';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const KEY = 'clave-de-escritura-0123456789';

/** What axe finds wrong on the page as it is now, one line per rule and element. */
async function violations(page: Page): Promise<string[]> {
  // Colours are judged as they settle, not halfway through a dialog's or a notification's fade.
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => undefined)))`);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`));
}

/** Waits until the page has no request under way (react-admin's loading indicator is gone). */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('[role=progressbar]').first().waitFor({ state: 'detached' });
}

describe('the admin\'s accessibility (WCAG 2.2 AA, axe)', () => {
  let browser: Browser;
  let service: Awaited<ReturnType<typeof startService>>;
  before(async () => {
    [browser, service] = await Promise.all([launchChromium(), startService({ API_KEYS: KEY })]);
  });
  after(async () => {
    await browser?.close();
    await service?.cleanUp();
  });

  it('when every screen, dialog and error state is opened at 360 and 1280 px, then axe finds no WCAG 2.2 AA violation', { timeout: 240_000 }, async () => {
    const categoria = await service.api.create('/categorias', { nombre: 'Callejero' });
    const evento = await service.api.create('/eventosUrbanos', {
      titulo: 'Murga en el barrio', descripcion: 'Murgas.', fecha: '2027-02-20', lugar: 'Parque Rodó', categoria_id: categoria.id,
    });
    const artista = await service.api.create('/artistas', { dni: 30111222, nombre: 'Ana', apellido: 'Prada', tipo: 'cantante', descripcion: 'Murguista.' });
    const participacion = await service.api.create('/participaciones', { artistas_dni: artista.dni, tipo_evento: 'eventoUrbano', evento_id: evento.id });
    const pelicula = await service.api.create('/peliculas', { titulo: 'Zama', sipnosis: 'Un funcionario espera.', duracion: 115, categoria_id: categoria.id });
    await service.api.call('PATCH', `/peliculas/${pelicula.id}`, { duracion: 116 });
    const obra = await service.api.create('/Obras', { titulo: 'La Celestina', descripcion: 'Tragicomedia.', duracion: 120, categoria_id: categoria.id });
    const borrada = await service.api.create('/Obras', { titulo: 'Una obra que se borró', descripcion: 'Ya no.', duracion: 60, categoria_id: categoria.id });
    await service.api.call('DELETE', `/Obras/${borrada.id}`);
    const records = {
      peliculas: pelicula.id, Obras: obra.id, eventosUrbanos: evento.id, artistas: artista.dni, participaciones: participacion.id, categorias: categoria.id,
    };
    const found: string[] = [];
    const check = async (page: Page, name: string) => {
      for (const line of await violations(page)) found.push(`${name}: ${line}`);
    };

    for (const width of [360, 1280]) {
      // The write-key dialog is provoked (401), and the record that is not there (404) shown.
      const { page, context, problems } = await openPage(browser, { width, refusals: [400, 401, 404] });
      const go = async (hash: string, shows?: string) => {
        await page.goto(`${service.base}/admin/#${hash}`);
        await page.locator('#main-content').waitFor();
        if (shows) await page.locator('#main-content').getByText(shows).first().waitFor();
        await settled(page);
      };
      for (const [resource, id] of Object.entries(records)) {
        for (const screen of ['', '/create', `/${String(id)}/show`, `/${String(id)}`]) {
          await go(`/${resource}${screen}`);
          await check(page, `${resource}${screen}-${width}`);
        }
      }
      await go('/cambios', 'Zama');
      await check(page, `cambios-${width}`);
      await go('/papelera', 'Restaurar');
      await check(page, `papelera-${width}`);
      await go('/importar', 'Exportar todo');
      await check(page, `importar-${width}`);
      // The write key asked for, then refused: the dialog and the notification.
      await go('/categorias/create');
      await page.locator('[name="nombre"]').fill('Zarzuela');
      await page.getByRole('button', { name: 'Guardar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Clave de escritura' });
      await dialog.waitFor();
      await check(page, `clave-de-escritura-${width}`);
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await page.getByText('No se guardó nada', { exact: false }).waitFor();
      await check(page, `sin-clave-${width}`);
      // A form sent with its title alone: the service refuses the fields left out, each says so.
      await go('/peliculas/create');
      await page.locator('[name="titulo"]').fill('Sin terminar');
      await page.getByRole('button', { name: 'Guardar' }).click();
      await page.locator('[name="writeKey"]').fill(KEY);
      await page.getByRole('dialog', { name: 'Clave de escritura' }).getByRole('button', { name: 'Usar esta clave' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      await check(page, `peliculas-create-incompleto-${width}`);
      // A record that is not there, and a screen that does not exist.
      await page.goto(`${service.base}/admin/#/peliculas/999999/show`);
      await page.getByText('El registro no existe', { exact: false }).first().waitFor();
      await check(page, `peliculas-inexistente-${width}`);
      await go('/nada');
      await check(page, `no-encontrada-${width}`);

      await go('/importar', 'Exportar todo');
      // A file that is no workbook: the report with its problem.
      await page.locator('[name="archivo"]').setInputFiles({ name: 'programa.xlsx', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n') });
      await page.getByRole('button', { name: 'Comprobar' }).click();
      await page.getByTestId('informe').getByText('1 problema: no se guardó nada.', { exact: false }).waitFor();
      await check(page, `importar-informe-${width}`);

      await context.close();
      assert.deepEqual(problems, [], 'no console errors and no CSP violations');
    }
    assert.deepEqual(found, [], 'no WCAG 2.2 AA violation on any screen');
  });
});
