import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { type Shop, bookThroughApi, emailOf, openShop } from './pages-fixtures';

const BAD_LINK =
  'This link is not valid. Please use the link in your confirmation e-mail or text message.';

/**
 * The confirmation page served from what a process kept of its appointment (KeptConfirmations):
 * only while nothing was written for the account on any process, and never for a link that is not
 * the appointment's. The row is changed behind the service's back (SQL, which bumps nothing) to
 * tell a kept page from a fresh one.
 */
describe('Client pages: kept confirmation pages (e2e, two API processes, Redis)', () => {
  let a: NestFastifyApplication;
  let b: NestFastifyApplication;
  let db: DataSource;
  let shop: Shop;

  beforeAll(async () => {
    a = await startApi({ config: testConfig() });
    b = await startApi({ config: testConfig() });
    db = a.get(DataSource);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  beforeEach(async () => {
    shop = await openShop(a);
  });

  const get = (app: NestFastifyApplication, url: string) => app.inject({ method: 'GET', url });

  const book = (datetime?: string, s = shop) => bookThroughApi(s, datetime, emailOf('kept'));

  /** Another first name and an hour later, written behind the service's back (no epoch bump). */
  const change = (id: number) =>
    db.query(
      `UPDATE appointments SET first_name = 'Grace', starts_at = starts_at + INTERVAL 1 HOUR,
         ends_at = ends_at + INTERVAL 1 HOUR WHERE id = ?`,
      [id],
    );

  /** Opens the page on `app` twice: the first read teaches its account, the second keeps it. */
  async function keep(app: NestFastifyApplication, page: string) {
    for (let i = 0; i < 2; i++) expect((await get(app, page)).statusCode).toBe(200);
  }

  it('serves the kept page until a write for the account, on any process', async () => {
    const { id, page } = await book();
    await keep(b, page);
    await change(id);
    // B kept the row; A never read it, and reads it as it is.
    expect((await get(b, page)).body).toContain('Ada Lovelace');
    expect((await get(b, page)).body).toContain('at 10:00am');
    expect((await get(b, `${page}/appointment.ics`)).body).toContain('DTSTART:20300603T140000Z');
    expect((await get(a, page)).body).toContain('Grace Lovelace');
    // Any write for the account, on A (a note on another appointment): B's kept row is stale.
    const other = await book('2030-06-03T11:00:00-0400');
    expect((await shop.api.put(`/appointments/${other.id}`, { notes: 'n' })).status).toBe(200);
    const fresh = await get(b, page);
    expect(fresh.body).toContain('Grace Lovelace');
    expect(fresh.body).toContain('at 11:00am');
    expect((await get(b, `${page}/appointment.ics`)).body).toContain('DTSTART:20300603T150000Z');
  });

  it('shows a cancel or a move made through the API on another process at once', async () => {
    const { id, page } = await book();
    await keep(b, page);
    expect((await get(b, page)).body).toContain('at 10:00am');
    const moved = await shop.api.put(`/appointments/${id}/reschedule`, {
      datetime: '2030-06-03T13:00:00-0400',
    });
    expect(moved.status).toBe(200);
    expect((await get(b, page)).body).toContain('at 1:00pm');
    await keep(b, page);
    expect((await get(b, page)).body).toContain('Cancel this appointment');
    expect((await shop.api.put(`/appointments/${id}/cancel`, {})).status).toBe(200);
    const canceled = await get(b, page);
    expect(canceled.body).not.toContain('Cancel this appointment');
    expect(canceled.body).toContain('Your appointment is canceled');
  });

  it("never serves a kept row for a link that is not the appointment's: 404, nothing shown", async () => {
    const mine = await book();
    const other = await openShop(a, 'Other Clinic');
    const theirs = await book('2030-06-03T11:00:00-0400', other);
    await keep(b, mine.page);
    await keep(b, theirs.page);
    const [, myMac] = /\/confirmation\/\d+-([0-9a-f]{32})$/.exec(mine.page)!;
    const [, theirMac] = /\/confirmation\/\d+-([0-9a-f]{32})$/.exec(theirs.page)!;
    for (const url of [
      `/confirmation/${mine.id}-${'0'.repeat(32)}`,
      `/confirmation/${mine.id}-${myMac.slice(0, 31)}`,
      `/confirmation/${mine.id}-${theirMac}`,
      `/confirmation/${theirs.id}-${myMac}`,
      `/confirmation/${theirs.id}-${myMac}/appointment.ics`,
      `/confirmation/${theirs.id}-${myMac}/reschedule`,
    ]) {
      const res = await get(b, url);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.body).toContain(BAD_LINK);
      expect(res.body).not.toContain('Ada');
      expect(res.body).not.toContain('Clinic');
    }
    // The kept rows still open with their own links.
    expect((await get(b, mine.page)).body).toContain(`action="${mine.page}/cancel"`);
    expect((await get(b, theirs.page)).body).toContain(`action="${theirs.page}/cancel"`);
  });
});
