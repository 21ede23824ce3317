import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { LANGUAGES } from '../../src/common/i18n/languages';
import { launchChromium } from '../support/browser';
import { eventually } from '../support/eventually';
import {
  type PagesServer,
  type Shop,
  ZONE,
  axeViolations,
  bookThroughApi,
  emailOf,
  openShop,
  startPagesServer,
  problemsOf,
} from './pages-fixtures';

/** Set to a folder (docs/images) to keep screenshots of each step, as docs/pages.md shows them. */
const SCREENSHOTS = process.env.PAGES_SCREENSHOTS;

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS)
    await page.screenshot({ path: join(SCREENSHOTS, `pages-${name}.png`), fullPage: true });
}

/**
 * The pages in the client's language (`?lang=`, else `Accept-Language`, else the account's), kept
 * on the appointment for its page and e-mails; the month's grid and one click per choice with
 * JavaScript on and off; axe on every page in every language; the account's colour and logo.
 */
describe('Client pages in the client’s language and the business’s look (e2e)', () => {
  jest.setTimeout(120_000);
  let server: PagesServer;
  let chromium: Browser;
  let shop: Shop;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startPagesServer({ mail: true });
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });
  beforeEach(async () => {
    shop = await openShop(server.app);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function openPage(options: BrowserContextOptions = {}) {
    const context = await chromium.newContext(options);
    contexts.push(context);
    const page = await context.newPage();
    const problems = problemsOf(page);
    return { page, problems };
  }

  const dateStep = (query = '') =>
    `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&month=2030-06${query}`;
  const click = (page: Page, role: 'link' | 'button', name: string) =>
    Promise.all([page.waitForEvent('load'), page.getByRole(role, { name, exact: true }).click()]);
  const lang = (page: Page) => page.locator('html').getAttribute('lang');

  it('Accept-Language es-ES: two clicks from the grid to the details, then the page and its e-mail in Spanish', async () => {
    const { page, problems } = await openPage({ locale: 'es-ES' });
    await page.goto(dateStep());
    expect(await lang(page)).toBe('es');
    expect(await page.title()).toBe('Reserve una cita con Test Clinic');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    // Click 1: the day (the script swaps its times in).
    await page.getByRole('link', { name: 'lunes, 3 de junio de 2030', exact: true }).click();
    await page
      .getByRole('heading', {
        name: 'Horas disponibles el lunes, 3 de junio de 2030 (America/New_York)',
      })
      .waitFor();
    expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    expect(
      await page
        .getByRole('link', { name: 'lunes, 3 de junio de 2030' })
        .getAttribute('aria-current'),
    ).toBe('true');
    expect(await page.getByRole('link', { name: 'Deutsch' }).getAttribute('href')).toBe(
      `/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&month=2030-06&date=2030-06-03&lang=de`,
    );
    expect(await axeViolations(page)).toEqual([]);
    // Click 2: the time.
    await click(page, 'button', '9:00');
    expect(await page.getByRole('heading', { name: 'Sus datos' }).count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('hold')).toMatch(/^[\w-]{43}$/);
    expect(await axeViolations(page)).toEqual([]);
    // A mistake is said in Spanish, next to its field.
    await click(page, 'button', 'Confirmar la reserva');
    expect(await page.locator('#firstName-error').textContent()).toBe('Escriba su nombre.');
    const email = emailOf('es');
    await page.getByLabel(/^Nombre/).fill('Ada');
    await page.getByLabel('Apellidos').fill('Lovelace');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel(/I accept the terms/).check();
    await Promise.all([
      page.waitForURL(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/),
      page.getByRole('button', { name: 'Confirmar la reserva' }).click(),
    ]);
    expect(await lang(page)).toBe('es');
    expect(await page.title()).toBe('Su cita');
    expect(await page.getByRole('status').textContent()).toMatch(/^Su cita está reservada/);
    expect(await page.locator('.facts').textContent()).toContain(
      'lunes, 3 de junio de 2030, 9:00 (GMT-4)',
    );
    expect(await axeViolations(page)).toEqual([]);

    // The e-mail speaks the language the client booked in.
    const mail = await eventually(() => server.smtp!.received(email)[0]);
    expect(mail.parsed.subject).toMatch(/^Su cita está confirmada: Consultation/);
    expect(String(mail.parsed.text)).toContain('lunes, 3 de junio de 2030');
    expect(String(mail.parsed.text)).toContain('Hola, Ada:');
    // So does its page, wherever it is opened: the language is kept on the appointment.
    const link = /href="([^"]+\/confirmation\/[^"]+)"/.exec(String(mail.parsed.html))![1];
    const { page: elsewhere } = await openPage({ locale: 'de-DE' });
    await elsewhere.goto(link);
    expect(await lang(elsewhere)).toBe('es');
    expect(
      await elsewhere.getByRole('link', { name: 'Cambiar la hora de esta cita' }).count(),
    ).toBe(1);
    // Unless its link asks for another.
    await elsewhere.goto(`${link}?lang=fr`);
    expect(await elsewhere.title()).toBe('Votre rendez-vous');
    // ...and then its links keep it.
    await Promise.all([
      elsewhere.waitForEvent('load'),
      elsewhere.getByRole('link', { name: 'Déplacer ce rendez-vous' }).click(),
    ]);
    expect(await lang(elsewhere)).toBe('fr');
    expect(problems).toEqual([]);
  });

  it('JavaScript off: ?lang=de wins over Accept-Language, and the grid and times are plain links and buttons', async () => {
    const { page, problems } = await openPage({ locale: 'es-ES', javaScriptEnabled: false });
    await page.goto(
      `${server.url}/schedule/${shop.account.id}?lang=de&timezone=${encodeURIComponent(ZONE)}`,
    );
    expect(await lang(page)).toBe('de');
    // The type: one click.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: /^Consultation 30 Minuten/ }).click(),
    ]);
    await page.goto(`${page.url()}&month=2030-05`);
    await click(page, 'link', 'Nächster Monat');
    expect(
      await page
        .getByRole('heading', { level: 2, name: 'Wählen Sie ein Datum im Juni 2030' })
        .count(),
    ).toBe(1);
    // From the date step, two clicks: the day, the time.
    await click(page, 'link', 'Montag, 3. Juni 2030');
    expect(
      await page.getByRole('heading', { name: /^Freie Uhrzeiten am Montag, 3. Juni 2030/ }).count(),
    ).toBe(1);
    await click(page, 'button', '09:30');
    expect(await page.getByRole('heading', { name: 'Ihre Angaben' }).count()).toBe(1);
    const url = new URL(page.url());
    expect(url.searchParams.get('lang')).toBe('de');
    expect(url.searchParams.get('datetime')).toBe('2030-06-03T09:30:00-0400');
    expect(await page.locator('.summary').textContent()).toContain(
      'Montag, 3. Juni 2030 um 09:30 (GMT-4)',
    );
    expect(problems).toEqual([]);
  });

  it("an unknown language is the account's; so is a page without Accept-Language", async () => {
    expect((await shop.api.put('/settings', { language: 'fr', firstDayOfWeek: 1 })).status).toBe(
      200,
    );
    const { page } = await openPage({ locale: 'ja-JP' });
    await page.goto(dateStep());
    expect(await lang(page)).toBe('fr');
    // Weeks from the account's first day: Monday, as French calendars show them.
    const weekdays = await page
      .locator('#month th abbr')
      .evaluateAll((all) => all.map((a) => a.getAttribute('title')));
    expect(weekdays).toEqual([
      'lundi',
      'mardi',
      'mercredi',
      'jeudi',
      'vendredi',
      'samedi',
      'dimanche',
    ]);
    // June 1, 2030 is a Saturday: the sixth cell of the first week.
    expect(await page.locator('#month tbody tr').first().locator('td').nth(5).textContent()).toBe(
      'samedi 1 juin 20301',
    );
    await page.goto(dateStep('&lang=xx'));
    expect(await lang(page)).toBe('fr');
    const res = await fetch(dateStep('&lang=zz'));
    expect(await res.text()).toContain('<html lang="fr">');
    // A Spanish browser still gets Spanish.
    const spanish = await fetch(dateStep(), { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(await spanish.text()).toContain('<html lang="es">');
  });

  it('takes no language, colour or logo from hostile input, and no account’s look shows on another’s page', async () => {
    const hostile = ['<script>alert(1)</script>', 'de"><img src=x>', 'x'.repeat(5000), ''];
    for (const value of hostile) {
      const res = await fetch(`${dateStep()}&lang=${encodeURIComponent(value)}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).toContain('<html lang="en">');
      expect(body).not.toContain('<script>alert');
      expect(body).not.toContain('<img src=x>');
    }
    // Given twice, the first counts, for the page and for its links alike.
    const twice = await (await fetch(`${dateStep()}&lang=de&lang=es`)).text();
    expect(twice).toContain('<html lang="de">');
    expect(twice).toContain('lang=de&amp;month=2030-06&amp;date=2030-06-03');
    // A header of any size is read to a bound.
    const long = await fetch(dateStep(), {
      headers: { 'accept-language': `${'zz;q=0.1,'.repeat(1000)}es` },
    });
    expect(long.status).toBe(200);
    expect(await long.text()).toContain('<html lang="en">');

    // The accent's stylesheet is made from its name alone: a colour, or nothing.
    const sheet = await fetch(`${server.url}/pages/accent-1d4ed8.css`);
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sheet.text()).toBe(':root{--accent:#1d4ed8;--link:#1d4ed8;--focus:#1d4ed8}\n');
    for (const name of [
      'accent-1D4ED8.css',
      'accent-zzzzzz.css',
      'accent-1d4ed8.css%0d%0ax',
      'accent-.css',
    ])
      expect((await fetch(`${server.url}/pages/${name}`)).status).toBe(404);

    // One account's look is its own.
    const other = await openShop(server.app, 'Plain Clinic');
    expect(
      (
        await shop.api.put('/settings', {
          accentColor: '#1d4ed8',
          logoUrl: 'https://logo.example/a.png',
        })
      ).status,
    ).toBe(200);
    const plain = await fetch(
      `${server.url}/schedule/${other.account.id}?appointmentType=${other.type}&month=2030-06`,
    );
    expect(plain.headers.get('content-security-policy')).toContain("img-src 'self';");
    const html = await plain.text();
    expect(html).not.toContain('accent-');
    expect(html).not.toContain('logo.example');
    const styled = await fetch(dateStep());
    expect(styled.headers.get('content-security-policy')).toContain(
      "img-src 'self' https://logo.example;",
    );
  });

  it('axe finds no violation on any page, in any language', async () => {
    const booked = await bookThroughApi(shop);
    const canceled = await bookThroughApi(shop, '2030-06-10T10:00:00-0400');
    expect((await shop.api.put(`/appointments/${canceled.id}/cancel`, {})).status).toBe(200);
    const { page } = await openPage();
    const pages = [
      canceled.confirmationPage,
      `${server.url}/schedule/${shop.account.id}?timezone=${encodeURIComponent(ZONE)}`,
      dateStep('&date=2030-06-03'),
      dateStep('&date=2030-06-03&datetime=2030-06-03T11%3A00%3A00-0400'),
      booked.confirmationPage,
      `${booked.confirmationPage}/reschedule?date=2030-06-03`,
      `${server.url}/confirmation/1-00000000000000000000000000000000`,
    ];
    const found: string[] = [];
    for (const language of LANGUAGES)
      for (const url of pages) {
        await page.goto(`${url}${url.includes('?') ? '&' : '?'}lang=${language}`);
        expect(await lang(page)).toBe(language);
        for (const v of await axeViolations(page)) found.push(`${language} ${url}: ${v}`);
      }
    expect(found).toEqual([]);
  });

  it('fits every step at 390 px and 1280 px wide, in English and in Spanish', async () => {
    for (const language of ['en', 'es'] as const)
      for (const width of [390, 1280]) {
        const { page, problems } = await openPage({
          viewport: { width, height: 900 },
          locale: language === 'es' ? 'es-ES' : 'en-US',
        });
        const step = async (name: string) => {
          // Nothing wider than the screen: no sideways scrolling on a phone.
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(width);
          await screenshot(page, `${name}-${language}-${width}`);
        };
        await page.goto(
          `${server.url}/schedule/${shop.account.id}?timezone=${encodeURIComponent(ZONE)}`,
        );
        await step('types');
        await Promise.all([
          page.waitForEvent('load'),
          page.getByRole('link', { name: /^Consultation/ }).click(),
        ]);
        await page.goto(`${page.url()}&month=2030-06`);
        await step('date');
        await page.locator('#month a.day').first().click();
        await page.locator('#times button').first().waitFor();
        await step('times');
        await Promise.all([
          page.waitForEvent('load'),
          page.locator('#times button').nth(2).click(),
        ]);
        await page.locator('#details-form button[type=submit]').click();
        await page.waitForLoadState('load');
        await step('details');
        await page.locator('#firstName').fill('Ada');
        await page.locator('#lastName').fill('Lovelace');
        await page.locator('#email').fill(emailOf('shots'));
        await page.locator(`#field-${shop.form.consent}`).check();
        await Promise.all([
          page.waitForURL(/done=booked/),
          page.locator('#details-form button[type=submit]').click(),
        ]);
        await step('confirmation');
        await Promise.all([
          page.waitForEvent('load'),
          page.locator('a[href$="/reschedule"]').click(),
        ]);
        await step('reschedule');
        expect(problems).toEqual([]);
      }
  });

  it("shows the account's accent colour and logo on every page; the CSP allows the logo's origin alone", async () => {
    const logo = await startLogoServer();
    try {
      const logoUrl = `${logo.origin}/logo.png`;
      const set = await shop.api.put('/settings', { accentColor: '#1D4ED8', logoUrl });
      expect(set.status).toBe(200);
      const { page, problems } = await openPage({ ignoreHTTPSErrors: true });
      const loaded = await page.goto(dateStep('&date=2030-06-03'));
      expect(loaded!.headers()['content-security-policy']).toContain(
        `img-src 'self' ${logo.origin};`,
      );
      const image = page.getByRole('img', { name: 'Test Clinic' });
      await eventually(() =>
        image.evaluate((i) => (i as HTMLImageElement).naturalWidth || undefined),
      );
      expect(
        await page
          .getByRole('link', { name: 'Monday, June 3, 2030' })
          .evaluate((a) => getComputedStyle(a).backgroundColor),
      ).toBe('rgb(29, 78, 216)');
      expect(await axeViolations(page)).toEqual([]);
      // Any other origin is refused by the browser.
      await page.evaluate(
        (src) => {
          const other = document.createElement('img');
          other.src = src;
          document.body.append(other);
        },
        logoUrl.replace('127.0.0.1', 'localhost'),
      );
      await eventually(() => (problems.some((p) => p.includes('img-src')) ? true : undefined));
      // The least contrast the settings accept (4.54:1 against white) still passes AA everywhere.
      expect((await shop.api.put('/settings', { accentColor: '#767676' })).status).toBe(200);
      await page.goto(dateStep('&date=2030-06-03'));
      expect(await axeViolations(page)).toEqual([]);
      const booked = await bookThroughApi(shop);
      await page.goto(booked.confirmationPage);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.getByRole('img', { name: 'Test Clinic' }).getAttribute('src')).toBe(
        logoUrl,
      );
    } finally {
      await logo.close();
    }
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An https server of the business's logo on 127.0.0.1, with a certificate of its own (openssl). */
async function startLogoServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'logo-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const server: Server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      origin: `https://127.0.0.1:${port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
