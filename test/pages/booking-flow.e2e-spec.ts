import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import type { Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { type TestBrowser, launchBrowser } from '../support/browser';
import {
  type PagesServer,
  type Shop,
  ZONE,
  axeViolations,
  emailOf,
  openShop,
  startPagesServer,
  problemsOf,
} from './pages-fixtures';

/**
 * The client pages as a client uses them, in headless Chromium with JavaScript on: book through
 * the scheduling page (a form, an addon, a coupon), open the confirmation page from the e-mail,
 * take the .ics, reschedule, cancel; keyboard only; axe-core on every page. The API answers the
 * same as the pages showed, and the browser reports no CSP violation.
 */
describe('Client pages in Chromium, JavaScript on (e2e)', () => {
  jest.setTimeout(90_000);
  let server: PagesServer;
  let chromium: TestBrowser;
  let shop: Shop;

  beforeAll(async () => {
    server = await startPagesServer({ mail: true });
    chromium = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });
  beforeEach(async () => {
    shop = await openShop(server.app);
  });

  async function openPage(): Promise<{ page: Page; problems: string[] }> {
    const page = await chromium.context.newPage();
    const problems = problemsOf(page);
    return { page, problems };
  }

  const schedulingUrl = (query: string) =>
    `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&month=2030-06${query}`;

  it('books with a form, an addon and a coupon; the e-mail opens the confirmation page; .ics, reschedule, cancel', async () => {
    const { page, problems } = await openPage();
    const email = emailOf();
    // The list of types (no type in the link).
    await page.goto(
      `${server.url}/schedule/${shop.account.id}?timezone=${encodeURIComponent(ZONE)}`,
    );
    expect(await page.getByRole('region', { name: 'Choose an appointment' }).count()).toBe(1);
    expect(
      await page
        .getByRole('link', { name: 'Consultation 30 minutes · $40.00', exact: true })
        .count(),
    ).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(schedulingUrl(`&field:${shop.form.note}=Prefilled%20by%20link`));
    expect(await page.title()).toBe('Book an appointment with Test Clinic');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel(/Scalp massage/).check();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Show the dates' }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('addonIDs')).toBe(String(shop.addon));
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await page.getByRole('link', { name: 'Monday, June 3, 2030', exact: true }).click();
    // The script brings the times without a reload.
    await page.getByRole('heading', { name: /Available times on Monday, June 3, 2030/ }).waitFor();
    expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    expect(new URL(page.url()).searchParams.get('date')).toBe('2030-06-03');
    expect(await axeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: '9:00am', exact: true }).click(),
    ]);

    // The time is held while the client fills in the form (slot holds): no one else is offered it.
    expect(new URL(page.url()).searchParams.get('hold')).toMatch(/^[\w-]{43}$/);
    expect(await page.getByText('This time is held for you').count()).toBe(1);
    const offered = await shop.api.get(
      `/availability/times?appointmentTypeID=${shop.type}&date=2030-06-03`,
    );
    expect((offered.body as { time: string }[]).map((t) => t.time)).not.toContain(
      '2030-06-03T09:00:00-0400',
    );
    expect(await page.getByLabel('What brings you in?').inputValue()).toBe('Prefilled by link');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('T-shirt size').selectOption('M');
    // Forgetting the required consent: the error is by the checkbox, announced.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(await page.getByRole('alert').first().textContent()).toBe(
      'Please correct the marked fields below.',
    );
    const consent = page.getByLabel(/I accept the terms/);
    expect(await consent.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#field-${shop.form.consent}-error`).textContent()).toBe(
      'This question needs an answer.',
    );
    expect(await page.getByLabel('First name').inputValue()).toBe('Ada');
    expect(await axeViolations(page)).toEqual([]);
    await consent.check();
    await page.getByLabel('Coupon or package code').fill(shop.coupon);
    await Promise.all([
      page.waitForURL(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/),
      page.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toMatch(/Your appointment is booked/);
    expect(await axeViolations(page)).toEqual([]);

    const id = Number(/\/confirmation\/(\d+)-/.exec(page.url())![1]);
    const got = await shop.api.get(`/appointments/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      datetime: '2030-06-03T09:00:00-0400',
      duration: '45',
      addonIDs: [shop.addon],
      certificate: shop.coupon,
      priceSold: '25.00',
      timezone: ZONE,
      forms: [
        {
          id: shop.form.id,
          name: 'Intake',
          values: [
            expect.objectContaining({ fieldID: shop.form.note, value: 'Prefilled by link' }),
            expect.objectContaining({ fieldID: shop.form.size, value: 'M' }),
            expect.objectContaining({ fieldID: shop.form.consent, value: 'yes' }),
          ],
        },
      ],
    });
    const confirmationPage = (got.body as { confirmationPage: string }).confirmationPage;
    expect(confirmationPage).toBe(page.url().replace('?done=booked', ''));

    // The e-mail's link opens the page.
    const mail = await eventually(() => server.smtp!.received(email)[0]);
    const link = /href="([^"]+\/confirmation\/[^"]+)"/.exec(String(mail.parsed.html))![1];
    expect(link).toBe(confirmationPage);
    await page.goto(link);
    expect(await page.title()).toBe('Your appointment');
    expect(await page.locator('.facts').textContent()).toContain(
      'Monday, June 3, 2030 at 9:00am (EDT)',
    );

    // The .ics: a real parser reads the instant, a stable UID, SEQUENCE 0.
    const first = await icsOf(page, link);
    expect(first.start).toBe('2030-06-03T13:00:00.000Z');
    // The UID of the e-mails' invitations and of the staff's feed (host name, no port): one event.
    expect(first.uid).toBe(`appointment-${id}@127.0.0.1`);
    expect(first.sequence).toBe(0);

    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: 'Reschedule this appointment' }).click(),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: 'Monday, June 10, 2030', exact: true }).click(),
    ]);
    await page.getByLabel('10:00am').check();
    expect(await axeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForURL(/\?done=rescheduled$/),
      page.getByRole('button', { name: 'Move my appointment' }).click(),
    ]);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      datetime: '2030-06-10T10:00:00-0400',
    });
    const moved = await icsOf(page, link);
    expect(moved).toEqual({
      ...first,
      start: '2030-06-10T14:00:00.000Z',
      sequence: 1,
      status: 'CONFIRMED',
    });

    await Promise.all([
      page.waitForURL(/\?done=canceled$/),
      page.getByRole('button', { name: 'Cancel this appointment' }).click(),
    ]);
    expect(await page.title()).toBe('Your appointment is canceled');
    expect(
      await page.getByRole('link', { name: 'Book another appointment' }).getAttribute('href'),
    ).toBe(
      `/schedule/${shop.account.id}?appointmentType=${shop.type}&firstName=Ada&lastName=Lovelace&email=${encodeURIComponent(email)}`,
    );
    expect(await axeViolations(page)).toEqual([]);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({ canceled: true });
    expect((await icsOf(page, link)).status).toBe('CANCELLED');
    expect(problems).toEqual([]);
  });

  it("shows dates and times in the browser's own zone unless the link names one", async () => {
    const { page, problems } = await openPage();
    await page.goto(
      `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&month=2030-06&date=2030-06-03`,
    );
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.waitForURL((url) => url.searchParams.get('timezone') === zone);
    expect(await page.getByLabel('Time zone').inputValue()).toBe(zone);
    expect(
      await page.getByRole('heading', { level: 2, name: /^Available times on/ }).textContent(),
    ).toBe(`Available times on Monday, June 3, 2030 (${zone})`);
    expect(problems).toEqual([]);
  });

  it('books with the keyboard alone, focus always visible', async () => {
    const { page, problems } = await openPage();
    await page.goto(schedulingUrl(''));
    const tabTo = async (
      name: string | RegExp,
      role: 'link' | 'button' | 'textbox' | 'checkbox',
    ) => {
      const target = page.getByRole(role, { name }).first();
      for (let i = 0; i < 600; i++) {
        if (await target.evaluate((el) => el === document.activeElement)) {
          const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
          expect(outline).not.toBe('none');
          return;
        }
        await page.keyboard.press('Tab');
      }
      throw new Error(`never reached ${String(name)}`);
    };
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await tabTo(/^Monday, June 3, 2030$/, 'link');
    // The script swaps the day's times in; the link keeps focus, the times come after it.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Available times on Monday, June 3, 2030/ }).waitFor();
    expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    await tabTo('9:30am', 'button');
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    await tabTo('First name', 'textbox');
    await page.keyboard.type('Grace');
    await tabTo('Last name', 'textbox');
    await page.keyboard.type('Hopper');
    await tabTo('E-mail address', 'textbox');
    await page.keyboard.type(emailOf('keys'));
    await tabTo(/I accept the terms/, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo('Confirm booking', 'button');
    await Promise.all([page.waitForURL(/\?done=booked$/), page.keyboard.press('Enter')]);
    const id = Number(/\/confirmation\/(\d+)-/.exec(page.url())![1]);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      firstName: 'Grace',
      datetime: '2030-06-03T09:30:00-0400',
    });
    expect(problems).toEqual([]);
  });

  it('embeds only on the sites the account lists; embed.js sizes the iframe to the page', async () => {
    // A business's site on another origin, with the documented snippet.
    const site: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>My salon</title></head><body>` +
          `<iframe data-scheduling-page src="${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&amp;timezone=${encodeURIComponent(ZONE)}&amp;month=2030-06" title="Book an appointment" style="width:100%;height:120px;border:0"></iframe>` +
          `<script src="${server.url}/pages/embed.js" async></script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const { page, problems } = await openPage();
      await page.goto(siteUrl);
      await eventually(() =>
        problems.some((p) => p.includes("frame-ancestors 'none'")) ? true : undefined,
      );
      expect(
        await page.locator('iframe').evaluate((f) => (f as HTMLIFrameElement).style.height),
      ).toBe('120px');

      expect((await shop.api.put('/settings', { embedOrigins: [siteUrl] })).status).toBe(200);
      const { page: framed, problems: none } = await openPage();
      await framed.goto(siteUrl);
      const frame = framed.frameLocator('iframe[data-scheduling-page]');
      await frame.getByRole('link', { name: 'Monday, June 3, 2030', exact: true }).waitFor();
      const height = await eventually(async () => {
        const h = await framed
          .locator('iframe')
          .evaluate((f) => (f as HTMLIFrameElement).style.height);
        return h !== '120px' ? h : undefined;
      });
      expect(Number(height.replace('px', ''))).toBeGreaterThan(400);
      expect(none).toEqual([]);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

/** The .ics of a confirmation page, read by ical.js. */
async function icsOf(page: Page, confirmationPage: string) {
  const res = await page.request.get(`${confirmationPage}/appointment.ics`);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const calendar = new ICAL.Component(ICAL.parse(await res.text()));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    uid: event.getFirstPropertyValue('uid'),
    sequence: event.getFirstPropertyValue('sequence'),
    status: event.getFirstPropertyValue('status'),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
  };
}
