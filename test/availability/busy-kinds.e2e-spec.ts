import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { UnitOfWork } from '../../src/common/database/unit-of-work';
import { BusyKind } from '../../src/modules/catalog';
import { BusySourceRepository } from '../../src/modules/calendar-sync/busy-source.repository';
import { BusySourceSync } from '../../src/modules/calendar-sync/busy-source-sync';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { NY, utc, vcalendar, vevent } from '../calendar-sync/calendar-data';
import { IcsServer } from '../calendar-sync/ics-server';

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ start: '08:00', end: '18:00' }],
  ]),
);

/**
 * calendars.busy_kinds (issue 29): a client booking with a cached slot context reads only the kinds
 * of busy time its calendar's bits name. Each writer of a kind, through its own service, must set
 * its bit: then a booking whose cached context predates the bit finds its stamp stale, reads afresh
 * and is refused over the new busy time. A writer that forgot its bit would let that booking through.
 */
describe('Busy kinds: each writer sets its bit, and a cached booking context sees it (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let ics: IcsServer;
  let sync: BusySourceSync;
  // A day at least three days ahead, within the sync window and the types' horizon.
  const date = DateTime.now().setZone(NY).startOf('day').plus({ days: 4 });
  const at = (hour: number) => date.set({ hour }).toFormat("yyyy-MM-dd'T'HH:mm");

  beforeAll(async () => {
    ics = await IcsServer.start();
    const config = testConfig();
    app = await startApi({ config });
    db = app.get(DataSource);
    sync = new BusySourceSync(
      app.get(BusySourceRepository),
      app.get(Secrets),
      config,
      app.get(UnitOfWork),
    );
    api = apiClient(app, await createAccount(app, { timezone: NY }));
  });

  afterAll(async () => {
    await app?.close();
    await ics?.close();
  });

  const busyKinds = async (calendar: number): Promise<number> => {
    const [row] = await db.query<{ kinds: number }[]>(
      'SELECT busy_kinds AS kinds FROM calendars WHERE id = ?',
      [calendar],
    );
    return Number(row.kinds);
  };

  /**
   * Whether `/availability/times` offers 11:00: the answer kept since the last write for the
   * account (AvailabilityAnswers) unless the writer bumped the account's epoch.
   */
  const offersEleven = async (type: number, calendar: number): Promise<boolean> => {
    const res = await api.get(
      `/availability/times?appointmentTypeID=${type}&calendarID=${calendar}&date=${date.toISODate()}`,
    );
    expect(res.status).toBe(200);
    return (res.body as { time: string }[]).some((t) => t.time.startsWith(at(11)));
  };

  /** Busy time 11:00–12:00 of `date`, written by each kind's own writer. */
  const writers: [string, BusyKind, (calendar: number, type: number) => Promise<void>][] = [
    [
      'a block',
      BusyKind.blocks,
      async (calendar) => {
        const res = await api.post('/blocks', { calendarID: calendar, start: at(11), end: at(12) });
        expect(res.status).toBe(200);
      },
    ],
    [
      'a class session',
      BusyKind.sessions,
      async (calendar) => {
        const yoga = await createAppointmentType(api, {
          name: 'Yoga',
          duration: 60,
          type: 'class',
          classSize: 5,
          calendarIDs: [calendar],
          maxDaysInAdvance: 365,
        });
        const res = await api.post('/classes', {
          appointmentTypeID: yoga,
          calendarID: calendar,
          datetime: at(11),
        });
        expect(res.status).toBe(200);
      },
    ],
    [
      'a slot hold',
      BusyKind.holds,
      async (calendar, type) => {
        const res = await api.post('/slot-holds', {
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: at(11),
        });
        expect(res.status).toBe(200);
      },
    ],
    [
      "a calendar sync's external busy time",
      BusyKind.external,
      async (calendar, type) => {
        const path = `/busy-${calendar}.ics`;
        const start = date.set({ hour: 11 });
        ics.files.set(path, {
          body: vcalendar([
            vevent([
              `UID:busy-${calendar}@test`,
              `DTSTART:${utc(start)}`,
              `DTEND:${utc(start.plus({ hours: 1 }))}`,
            ]),
          ]),
        });
        const res = await api.post(`/calendars/${calendar}/busy-sources`, {
          type: 'ics',
          url: `${ics.url}${path}`,
        });
        expect(res.status).toBe(200);
        const source = (res.body as { id: number }).id;
        // Kept again after the source was added: only the worker's own write can make it stale.
        expect(await offersEleven(type, calendar)).toBe(true);
        await expect(sync.sync(source)).resolves.toEqual({ kind: 'read', events: 1 });
      },
    ],
  ];

  it.each(writers)(
    '%s sets its bit, /times shows it at once, and a booking over it with a context cached before is refused',
    async (_, bit, write) => {
      const calendar = await createCalendar(api, { name: 'Chair', timezone: NY, hours: EVERY_DAY });
      const type = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [calendar],
        maxDaysInAdvance: 365,
      });
      const book = (hour: number) =>
        api.post('/appointments', {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.test',
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: at(hour),
        });
      // A client booking of a named calendar caches its context: no kind of busy time yet.
      expect((await book(9)).status).toBe(200);
      expect(await busyKinds(calendar)).toBe(0);
      expect(await offersEleven(type, calendar)).toBe(true);

      await write(calendar, type);
      expect(await busyKinds(calendar)).toBe(bit);
      expect(await offersEleven(type, calendar)).toBe(false);

      await expect(book(11)).resolves.toMatchObject(
        apiError(400, 'not_available', `The time "${at(11)}" is not an available time slot.`),
      );
      // The fresh context (and its stamp, with the bit) books the rest of the day as before.
      expect((await book(13)).status).toBe(200);
      expect((await book(11)).status).toBe(400);
    },
  );
});
