import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { root, startService as startServiceProcess, type Service } from '../../service.js';

/** Where the screens are saved (git-ignored): a few of them are copied into docs/. */
export const SCREENSHOTS = join(root, 'artifacts', 'screenshots');

/**
 * The Chromium binary of the installed @sparticuz/chromium, unpacked once into a folder of its
 * version. The package itself unpacks into the OS temp folder and takes any `chromium` found there
 * for its own, whatever version left it; so it is pointed (through TMPDIR, which os.tmpdir() reads)
 * at a fresh folder, then that folder is renamed into place in one step: a run alongside never sees
 * a half-written binary.
 */
async function chromiumBinary(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules', '@sparticuz', 'chromium', 'package.json'), 'utf8')) as { version: string };
  const folder = join(tmpdir(), `cartelera-chromium-${version}`);
  const binary = join(folder, 'chromium');
  if (existsSync(binary)) return binary;
  const staging = await mkdtemp(join(tmpdir(), 'cartelera-chromium-unpacking-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await chromium.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  try {
    await rename(staging, folder);
  } catch (error) {
    // Another run put the same version in place first.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/**
 * Chromium from the @sparticuz/chromium package, headless, with nothing that would reach outside
 * this machine. Its own default flags are left out: they include --single-process, with which
 * closing a context ends the browser.
 */
export async function launchChromium(): Promise<Browser> {
  chromium.setGraphicsMode = false;
  return playwright.launch({
    executablePath: await chromiumBinary(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** The service as `npm start` runs it, on a fresh SQLite file, with `env` added. */
export async function startService(env: NodeJS.ProcessEnv = {}): Promise<Service & { api: Api; cleanUp(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cartelera-admin-'));
  const service = await startServiceProcess({ DATABASE_URL: `sqlite:${join(dir, 'cartelera.sqlite')}`, LOG_LEVEL: 'warn', ...env });
  await service.healthy(30_000);
  return {
    ...service,
    api: api(service.base, env.API_KEYS?.split(',')[0]),
    async cleanUp() {
      await service.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type Api = ReturnType<typeof api>;
type Json = Record<string, unknown>;

/** The service's HTTP interface, to prepare records and check what the admin did. */
function api(base: string, key?: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (key && method !== 'GET') headers.authorization = `Bearer ${key}`;
    const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return {
    call,
    /** Creates a record and answers it; fails on anything but 201. */
    async create(path: string, body: Json): Promise<Json> {
      const answer = await call('POST', path, body);
      if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as Json;
    },
    /** The records a list query answers. */
    list: async (pathAndQuery: string) => (await call('GET', pathAndQuery)).body as Json[],
    /** Uploads a picture to `/imagenes` with its fields and answers the image; fails on anything but 201. */
    async upload(fields: Record<string, string>, file: Buffer, type: string): Promise<Json> {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('archivo', new Blob([new Uint8Array(file)], { type }), `imagen.${type.split('/')[1]}`);
      const response = await fetch(`${base}/imagenes`, { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {}, body: form });
      const body = (await response.json()) as Json;
      if (response.status !== 201) throw new Error(`POST /imagenes: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
  };
}

/** What a page must never show: console errors, failed scripts, CSP violations, refusals no journey asked for. */
export interface Watched {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

export interface PageOptions {
  width?: number;
  height?: number;
  /** The browser's time zone (IANA name); the machine's by default. */
  timezoneId?: string;
  /** The browser's language; Spanish (Argentina) by default. */
  locale?: string;
  /**
   * The refusals the journey provokes and checks on the screen (a 400, 401, 412…); 0 stands for
   * the service out of reach. Any other answer of 400 or more is a problem.
   */
  refusals?: number[];
  /** A phone's screen: touch events, and the page laid out as a mobile browser does. */
  touch?: boolean;
}

// The browser logs every refused request: each is judged by its status instead (see `refusals`).
const REFUSAL_LOG = /^Failed to load resource: the server responded with a status of 4\d\d/;
const UNREACHABLE_LOG = /^Failed to load resource: net::ERR_CONNECTION_REFUSED/;

/** A fresh browser context (its own storage, as a new tab of a new user) whose page reports its problems. */
export async function openPage(browser: Browser, options: PageOptions = {}): Promise<Watched> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    locale: options.locale ?? 'es-AR',
    timezoneId: options.timezoneId,
    hasTouch: options.touch,
    isMobile: options.touch,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const refusals = options.refusals ?? [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() !== 'error' || REFUSAL_LOG.test(text) || (refusals.includes(0) && UNREACHABLE_LOG.test(text))) return;
    problems.push(`console: ${text}`);
  });
  page.on('response', (response) => {
    const status = response.status();
    if (status >= 400 && !refusals.includes(status)) problems.push(`HTTP ${status}: ${response.request().method()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.exposeFunction('reportViolation', (text: string) => problems.push(`CSP: ${text}`));
  // Page code, as text: this file is compiled for Node, without the DOM's types.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));",
  });
  return { page, context, problems };
}

/** Saves what the page shows now, as artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions (a notification sliding in) jump to their end: the screen as it settles. The whole
  // page is taken from its top: scrolled, the app bar (fixed) would be drawn where the view was.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** What axe-core finds against WCAG 2.2 AA on the page as it is now, one line per rule and element. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Colours are judged as they settle, not halfway through a dialog's or a notification's fade.
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => undefined)))`);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`));
}
