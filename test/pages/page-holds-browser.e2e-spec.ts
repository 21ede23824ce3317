import type { Browser, BrowserContext, Page } from 'playwright-core';
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
 * A visitor past a hold limit, in Chromium with JavaScript on and off: the page says why it cannot
 * hold the time, offers it without a hold, and the booking goes through (docs/pages.md, Holds from
 * the pages). Every browser here comes from 127.0.0.1: one network.
 */
describe.each([true, false])('Page holds in Chromium, JavaScript %s (e2e)', (javaScriptEnabled) => {
  jest.setTimeout(90_000);
  let server: PagesServer;
  let chromium: Browser;
  let shop: Shop;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startPagesServer();
    chromium = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    await chromium?.close();
    await server?.close();
  });
  beforeEach(async () => {
    shop = await openShop(server.app, 'Busy Clinic');
    // One page hold at once from a network: the second browser is past the limit.
    expect((await shop.api.put('/settings', { pageHoldsPerAddress: 1 })).status).toBe(200);
  });

  /** Another person's browser: a context of its own. */
  async function browse(): Promise<Page> {
    const context = await chromium.newContext({ javaScriptEnabled });
    contexts.push(context);
    return context.newPage();
  }

  async function chooseTime(page: Page, clock: string): Promise<void> {
    await page.goto(
      `${server.url}/schedule/${shop.account.id}?appointmentType=${shop.type}` +
        `&timezone=${encodeURIComponent(ZONE)}&month=2030-06&date=2030-06-03`,
    );
    // The time's own button sends the hold form.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: clock, exact: true }).click(),
    ]);
  }

  it('refuses a second hold from the network in words, offers the time unheld, and books it', async () => {
    const first = await browse();
    await chooseTime(first, '9:00am');
    expect(await first.getByText('This time is held for you').count()).toBe(1);

    const second = await browse();
    await chooseTime(second, '10:00am');
    expect(await second.getByRole('alert').first().textContent()).toBe(
      'Too many times are being held from your network right now, so this one cannot be held for you.',
    );
    if (javaScriptEnabled) expect(await axeViolations(second)).toEqual([]);
    await Promise.all([
      second.waitForEvent('load'),
      second.getByRole('link', { name: 'Continue without holding 10:00am' }).click(),
    ]);
    expect(new URL(second.url()).searchParams.get('hold')).toBeNull();
    expect(
      await second
        .getByText('This time is not held for you: someone else may book it before you finish.')
        .count(),
    ).toBe(1);
    if (javaScriptEnabled) expect(await axeViolations(second)).toEqual([]);
    await second.getByLabel('First name').fill('Grace');
    await second.getByLabel('Last name').fill('Hopper');
    await second.getByLabel('E-mail address').fill(emailOf('unheld'));
    await second.getByLabel(/I accept the terms/).check();
    await Promise.all([
      second.waitForURL(/\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/),
      second.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(await second.getByRole('status').textContent()).toMatch(/Your appointment is booked/);
    const id = Number(/\/confirmation\/(\d+)-/.exec(second.url())![1]);
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      firstName: 'Grace',
      datetime: '2030-06-03T10:00:00-0400',
    });
  });
});
