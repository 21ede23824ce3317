import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { launchChromium } from '../support/browser';
import {
  type PagesServer,
  type Shop,
  ZONE,
  axeViolations,
  emailOf,
  openShop,
  startPagesServer,
} from './pages-fixtures';

/**
 * A series booked on the scheduling page (docs/series.md): "repeat" shows every date before the
 * client confirms, the series is booked whole, the confirmation page lists it and cancels the rest
 * of it, and the one confirmation e-mail's .ics reads, in ical.js, as the same instants. In
 * Chromium with JavaScript off (plain forms) and on (axe-core on each page).
 */
describe('A series on the client pages, in Chromium (e2e)', () => {
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
    shop = await openShop(server.app, 'Series Clinic');
    const set = await shop.api.put(`/appointment-types/${shop.type}`, {
      recurrence: { frequencies: ['weekly'], maxCount: 12 },
    });
    expect(set.status).toBe(200);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  async function openPage(javaScriptEnabled: boolean): Promise<Page> {
    const context = await chromium.newContext({ javaScriptEnabled });
    contexts.push(context);
    return context.newPage();
  }

  const submit = (page: Page, name: string) =>
    Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);

  /** The details step of 9:00 on `date` (a Monday), the time held, as the time list leads there. */
  async function detailsStep(page: Page, date: string, label: string): Promise<void> {
    await page.goto(
      `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&date=${date}`,
    );
    // The time's own button holds it and leads to the details.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: label, exact: true }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('hold')).toMatch(/^[\w-]{43}$/);
  }

  async function fillDetails(page: Page, email: string): Promise<void> {
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel(/I accept the terms/).check();
  }

  /** The instants a calendar shows for an .ics, read by ical.js (VTIMEZONE, RRULE, EXDATE). */
  function instantsOf(ics: string): string[] {
    const root = new ICAL.Component(ICAL.parse(ics) as unknown[]);
    const zones = root.getAllSubcomponents('vtimezone').map((c) => new ICAL.Timezone(c));
    for (const tz of zones) ICAL.TimezoneService.register(tz, tz.tzid);
    try {
      const vevents = root.getAllSubcomponents('vevent');
      const overrides = vevents.filter((v) => v.hasProperty('recurrence-id'));
      const out: string[] = [];
      for (const master of vevents.filter((v) => !v.hasProperty('recurrence-id'))) {
        const event = new ICAL.Event(master, { exceptions: overrides, strictExceptions: true });
        const it = event.iterator();
        for (let next = it.next(); next; next = it.next())
          out.push(event.getOccurrenceDetails(next).startDate.toJSDate().toISOString());
      }
      return out.sort();
    } finally {
      for (const tz of zones) ICAL.TimezoneService.remove(tz.tzid);
    }
  }

  it('JavaScript off: books a 6-week series across the end of DST, gets one e-mail whose .ics has its instants, and cancels the rest', async () => {
    const page = await openPage(false);
    const email = emailOf('series');
    await detailsStep(page, '2030-10-07', '9:00am');
    await page.getByLabel('Repeat this appointment').selectOption('weekly');
    await page.getByLabel(/Number of appointments/).fill('6');
    await submit(page, 'Show the dates');
    const dates = await page.locator('#series-dates li').allTextContents();
    expect(dates).toEqual([
      'Monday, October 7, 2030 at 9:00am (EDT)',
      'Monday, October 14, 2030 at 9:00am (EDT)',
      'Monday, October 21, 2030 at 9:00am (EDT)',
      'Monday, October 28, 2030 at 9:00am (EDT)',
      'Monday, November 4, 2030 at 9:00am (EST)',
      'Monday, November 11, 2030 at 9:00am (EST)',
    ]);
    await fillDetails(page, email);
    await submit(page, 'Confirm 6 appointments');
    expect(page.url()).toMatch(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/);
    expect(await page.locator('#series li').count()).toBe(6);
    expect(await page.getByRole('heading', { name: 'Your series: 6 appointments' }).count()).toBe(
      1,
    );

    const id = Number(/\/confirmation\/(\d+)-/.exec(page.url())![1]);
    const { seriesID } = (await shop.api.get(`/appointments/${id}`)).body as { seriesID: number };
    const series = (await shop.api.get(`/appointment-series/${seriesID}`)).body as {
      appointments: { id: number; datetime: string; canceled: boolean }[];
    };
    const instants = series.appointments.map((a) => new Date(a.datetime).toISOString());
    expect(instants).toEqual([
      '2030-10-07T13:00:00.000Z',
      '2030-10-14T13:00:00.000Z',
      '2030-10-21T13:00:00.000Z',
      '2030-10-28T13:00:00.000Z',
      '2030-11-04T14:00:00.000Z',
      '2030-11-11T14:00:00.000Z',
    ]);

    // One confirmation e-mail for the series, listing every date, its .ics the same instants.
    const mail = await eventually(() => server.smtp!.received(email)[0]);
    expect(String(mail.parsed.subject)).toBe(
      'Your appointments are confirmed: Consultation, 6 from October 7, 2030 at 9:00am',
    );
    expect(String(mail.parsed.text)).toContain('Monday, November 11, 2030, 9:00am – 9:30am EST');
    const ics = mail.parsed.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(instantsOf(ics!.content.toString('utf8'))).toEqual(instants);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.smtp!.received(email)).toHaveLength(1);

    await submit(page, 'Cancel the rest of the series');
    expect(page.url()).toMatch(/\?done=series-canceled$/);
    expect(await page.getByRole('status').textContent()).toBe(
      'The rest of your series has been canceled.',
    );
    expect(await page.locator('#series li', { hasText: '(canceled)' }).count()).toBe(6);
    const after = (await shop.api.get(`/appointment-series/${seriesID}`)).body as typeof series;
    expect(after.appointments.map((a) => a.canceled)).toEqual(Array(6).fill(true));
  });

  it('cancels nothing for a form without its token, nor for an appointment of no series', async () => {
    const series = await shop.api.post('/appointment-series', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: emailOf('series'),
      appointmentTypeID: shop.type,
      datetime: '2030-06-03T10:00',
      fields: [{ id: shop.form.consent, value: 'yes' }],
      recurrence: { frequency: 'weekly', count: 2 },
    });
    expect(series.status).toBe(200);
    const [first] = series.body.appointments as { id: number; confirmationPage: string }[];
    const forged = await fetch(`${first.confirmationPage}/cancel-series`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=forged',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('This form has expired');
    const after = await shop.api.get(`/appointment-series/${series.body.id}`);
    const { appointments } = after.body as { appointments: { canceled: boolean }[] };
    expect(appointments.map((a) => a.canceled)).toEqual([false, false]);

    // A single appointment's page: no series listed, and its cancel-series form does nothing.
    const single = await shop.api.post('/appointments', {
      firstName: 'Bo',
      lastName: 'Single',
      email: emailOf('single'),
      appointmentTypeID: shop.type,
      datetime: '2030-06-03T11:00',
      fields: [{ id: shop.form.consent, value: 'yes' }],
    });
    const page = await openPage(false);
    await page.goto(single.body.confirmationPage);
    expect(await page.locator('#series').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel the rest of the series' }).count()).toBe(
      0,
    );
  });

  it('JavaScript on: a date the series cannot have is shown before confirming, and nothing is booked', async () => {
    const taken = await shop.api.post('/appointments', {
      firstName: 'Bo',
      lastName: 'Taken',
      email: emailOf('taken'),
      appointmentTypeID: shop.type,
      datetime: '2030-06-17T09:00',
      fields: [{ id: shop.form.consent, value: 'yes' }],
    });
    expect(taken.status).toBe(200);
    const page = await openPage(true);
    await detailsStep(page, '2030-06-03', '9:00am');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Repeat this appointment').selectOption('weekly');
    await page.getByLabel(/Number of appointments/).fill('4');
    await submit(page, 'Show the dates');
    expect(await page.locator('#series-dates li.unavailable').allTextContents()).toEqual([
      'Monday, June 17, 2030 at 9:00am (EDT) (not available)',
    ]);
    expect(await page.locator('#series-error').textContent()).toContain(
      'One of these dates is not available.',
    );
    expect(await axeViolations(page)).toEqual([]);
    await fillDetails(page, emailOf('series'));
    await submit(page, 'Confirm 4 appointments');
    expect(page.url()).toContain(`/schedule/${shop.account.id}`);
    expect(await page.locator('#series-error').textContent()).toContain(
      'Sorry, not every date of this series is available: 1 of them cannot be booked.',
    );
    const listed = await shop.api.get(`/appointments?appointmentTypeID=${shop.type}`);
    expect((listed.body as unknown[]).length).toBe(1);
  });
});
