import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import {
  type PagesServer,
  type Shop,
  ZONE,
  emailOf,
  openShop,
  startPagesServer,
  problemsOf,
} from './pages-fixtures';

/**
 * The same pages with JavaScript off (every step a plain GET or POST form), two clients confirming
 * the same time at once, and client names and answers that are HTML. (axe-core needs a script
 * to run: the JavaScript-on test checks every page with it.)
 */
describe('Client pages in Chromium, JavaScript off (e2e)', () => {
  jest.setTimeout(90_000);
  let server: PagesServer;
  let chromium: Browser;
  let shop: Shop;
  /** The contexts a test opened: each a client's own browser (cookies, storage), scripts off. */
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startPagesServer();
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });
  beforeEach(async () => {
    shop = await openShop(server.app, 'Quiet Clinic');
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  /** A page in a new context of its own (another client), JavaScript off. */
  async function openPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await chromium.newContext({ javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    const problems = problemsOf(page);
    return { page, problems };
  }

  const submit = (page: Page, name: string) =>
    Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);
  /** A link followed: the page it loads. */
  const follow = (page: Page, name: string | RegExp) =>
    Promise.all([page.waitForEvent('load'), page.getByRole('link', { name }).click()]);
  /** A time of the list chosen (its own submit button): the details step, or the list again. */
  const chooseTime = (page: Page, clock: string) =>
    Promise.all([
      page.waitForEvent('load'),
      page.locator('#times').getByRole('button', { name: clock, exact: true }).click(),
    ]);
  /** The times a page's list offers (each its button's value). */
  const offeredTimes = (page: Page) =>
    page
      .locator('#times')
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).value));

  it('books, reschedules and cancels with plain forms; the zone can be switched', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${server.url}/schedule/${shop.account.id}`);
    await follow(page, /^Consultation/);
    expect(new URL(page.url()).searchParams.get('appointmentType')).toBe(String(shop.type));
    // A month far ahead, as the month links lead there.
    await page.goto(`${page.url()}&month=2030-05`);
    await follow(page, 'Next month');
    expect(
      await page.getByRole('heading', { level: 2, name: 'Choose a date in June 2030' }).count(),
    ).toBe(1);
    await page.getByLabel('Time zone').selectOption('Europe/London');
    await submit(page, 'Show the dates');
    await follow(page, 'Monday, June 3, 2030');
    expect(await page.locator('#times').getByRole('heading', { level: 2 }).textContent()).toBe(
      'Available times on Monday, June 3, 2030 (Europe/London)',
    );
    // 09:00 in New York is 14:00 in London.
    expect(await page.locator('#times').getByRole('button').first().getAttribute('value')).toBe(
      '2030-06-03T14:00:00+0100',
    );
    await chooseTime(page, '2:30pm');
    expect(await page.locator('.summary').textContent()).toContain(
      'Monday, June 3, 2030 at 2:30pm (GMT+1)',
    );
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('E-mail address').fill(emailOf('noscript'));
    await page.getByLabel(/I accept the terms/).check();
    await submit(page, 'Confirm booking');
    expect(page.url()).toMatch(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/);
    const id = Number(/\/confirmation\/(\d+)-/.exec(page.url())![1]);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      // The API shows it in the client's zone: 09:30 in New York.
      datetime: '2030-06-03T14:30:00+0100',
      timezone: 'Europe/London',
      calendarTimezone: ZONE,
    });
    // The client's zone, and the calendar's where they differ.
    const when = await page.locator('.facts').textContent();
    expect(when).toContain('Monday, June 3, 2030 at 2:30pm (GMT+1)');
    expect(when).toContain('Monday, June 3, 2030 at 9:30am (EDT) where it takes place');

    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('link', { name: 'Reschedule this appointment' }).click(),
    ]);
    await follow(page, 'Monday, June 3, 2030');
    // Its own time is offered (the old slot counts as free for it).
    await page.getByLabel('2:30pm').check();
    await page.getByLabel('4:00pm').check();
    await submit(page, 'Move my appointment');
    expect(page.url()).toMatch(/\?done=rescheduled$/);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      datetime: '2030-06-03T16:00:00+0100',
    });
    // The old slot is free again.
    const times = await shop.api.get(
      `/availability/times?appointmentTypeID=${shop.type}&date=2030-06-03`,
    );
    expect(times.body).toContainEqual({ time: '2030-06-03T09:30:00-0400', slotsAvailable: 1 });

    await submit(page, 'Cancel this appointment');
    expect(page.url()).toMatch(/\?done=canceled$/);
    expect(await page.getByRole('status').textContent()).toBe(
      'Your appointment has been canceled.',
    );
    expect(await page.getByRole('button', { name: 'Cancel this appointment' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('two clients (two browser contexts) confirm the same time at once: one is booked, the other is offered other times', async () => {
    const pages = await Promise.all([openPage(), openPage()]);
    const url = `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&datetime=${encodeURIComponent('2030-06-03T11:00:00-0400')}`;
    for (const [i, { page }] of pages.entries()) {
      await page.goto(url);
      await page.getByLabel('First name').fill(`Client ${i}`);
      await page.getByLabel('Last name').fill('Racer');
      await page.getByLabel('E-mail address').fill(emailOf('storm'));
      await page.getByLabel(/I accept the terms/).check();
    }
    const responses = await Promise.all(
      pages.map(({ page }) =>
        Promise.all([
          page.waitForEvent('load'),
          page.getByRole('button', { name: 'Confirm booking' }).click(),
        ]),
      ),
    );
    expect(responses).toHaveLength(2);
    const booked = pages.filter(({ page }) => page.url().includes('/confirmation/'));
    const refused = pages.filter(({ page }) => page.url().includes('/schedule/'));
    expect([booked.length, refused.length]).toEqual([1, 1]);
    const other = refused[0].page;
    expect(await other.getByRole('alert').textContent()).toBe(
      'Sorry, that time is no longer available. Please choose another time.',
    );
    const offered = await offeredTimes(other);
    expect(offered).not.toContain('2030-06-03T11:00:00-0400');
    expect(offered).toContain('2030-06-03T11:30:00-0400');
    // The other client's answers are kept for the next try.
    await chooseTime(other, '11:30am');
    expect(await other.getByLabel('First name').inputValue()).toMatch(/^Client [01]$/);
    const list = await shop.api.get('/appointments?minDate=2030-06-03&maxDate=2030-06-03');
    expect((list.body as { datetime: string }[]).map((a) => a.datetime)).toEqual([
      '2030-06-03T11:00:00-0400',
    ]);
  });

  it('a time another client holds meanwhile: told so at once, offered the other times; the holder books it', async () => {
    const [a, b] = await Promise.all([openPage(), openPage()]);
    const url = `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&month=2030-06&date=2030-06-03`;
    await Promise.all([a.page.goto(url), b.page.goto(url)]);
    await chooseTime(a.page, '11:00am');
    expect(new URL(a.page.url()).searchParams.get('hold')).toMatch(/^[\w-]{43}$/);
    // B still sees 11:00 on the list it loaded before.
    const [, answer] = await Promise.all([
      b.page.waitForEvent('load'),
      b.page.waitForResponse((r) => r.url().endsWith('/hold')),
      b.page.locator('#times').getByRole('button', { name: '11:00am', exact: true }).click(),
    ]);
    expect(answer.status()).toBe(409);
    expect(await b.page.getByRole('alert').textContent()).toBe(
      'Sorry, that time is no longer available. Please choose another time.',
    );
    const offered = await offeredTimes(b.page);
    expect(offered).not.toContain('2030-06-03T11:00:00-0400');
    expect(offered).toContain('2030-06-03T11:30:00-0400');

    await a.page.getByLabel('First name').fill('Holder');
    await a.page.getByLabel('Last name').fill('First');
    await a.page.getByLabel('E-mail address').fill(emailOf('holder'));
    await a.page.getByLabel(/I accept the terms/).check();
    await submit(a.page, 'Confirm booking');
    expect(a.page.url()).toMatch(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/);
  });

  it("shows a client's name and answers that are HTML as text", async () => {
    const hostile = '<img src=x onerror="document.title=1">';
    const booked = await shop.api.post('/appointments', {
      firstName: hostile,
      lastName: '<script>document.title=2</script>',
      email: emailOf('xss'),
      appointmentTypeID: shop.type,
      datetime: '2030-06-03T13:00:00-0400',
      fields: [
        { id: shop.form.note, value: '"><svg onload=alert(1)>' },
        { id: shop.form.consent, value: 'yes' },
      ],
    });
    expect(booked.status).toBe(200);
    const { page } = await openPage();
    await page.goto(booked.body.confirmationPage as string);
    expect(await page.title()).toBe('Your appointment');
    const facts = page.locator('.facts');
    expect(await facts.textContent()).toContain(`${hostile} <script>document.title=2</script>`);
    expect(await facts.textContent()).toContain('"><svg onload=alert(1)>');
    expect(await page.locator('.facts img, .facts script, .facts svg').count()).toBe(0);
  });
});
