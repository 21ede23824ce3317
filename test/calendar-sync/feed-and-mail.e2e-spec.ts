import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import type { ParsedMail } from 'mailparser';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { eventually } from '../support/eventually';
import { createAccount, startApi, startWorker } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { SmtpSink } from '../notifications/sinks';

const ZONE = 'America/Chicago';
const SMTP = { user: 'mailer', password: 'smtp-secret' };
// A Monday well ahead; the move crosses the end of daylight saving time (November 2, 2031).
const FIRST = DateTime.fromISO('2031-10-27T09:30', { zone: ZONE });
const MOVED = DateTime.fromISO('2031-11-03T14:00', { zone: ZONE });

interface ParsedEvent {
  method: string | null;
  uid: string;
  sequence: number;
  start: number;
  end: number;
  status: string | null;
  summary: string;
}

/** The VEVENTs of an iCalendar text, read by ical.js (a real parser), their times as instants. */
function parseCalendar(text: string): ParsedEvent[] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const method = root.getFirstPropertyValue('method');
  return root.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      method: method === null ? null : String(method),
      uid: event.uid,
      sequence: event.sequence,
      start: event.startDate.toUnixTime() * 1000,
      end: event.endDate.toUnixTime() * 1000,
      status: (vevent.getFirstPropertyValue('status') as string | null) ?? null,
      summary: event.summary,
    };
  });
}

/** The text/calendar part of an e-mail (nodemailer's icalEvent: an alternative and an attachment). */
function calendarPart(mail: ParsedMail): string {
  const part = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  if (!part) throw new Error(`no text/calendar part in ${JSON.stringify(mail.attachments)}`);
  return part.content.toString('utf8');
}

/**
 * The schedule out: the confirmation and reschedule e-mails (sent by the worker through a real SMTP
 * server on 127.0.0.1) carry the appointment's event, and the calendar's secret feed publishes the
 * calendar's appointments and blocks; both read back by ical.js with the right instants.
 */
describe('Calendar sync: the feed and the e-mail .ics (e2e)', () => {
  let app: NestFastifyApplication;
  let worker: TestingModule;
  let smtp: SmtpSink;
  let api: ApiClient;
  let calendar: number;
  let type: number;

  beforeAll(async () => {
    smtp = await SmtpSink.start(SMTP);
    const base = testConfig();
    const config = base.with({
      queue: { prefix: `${base.queue.prefix}:calendar-feed` },
      notifications: {
        ...base.notifications,
        mail: smtp.mailConfig(),
      },
    });
    app = await startApi({ config });
    worker = await startWorker(config);
    api = apiClient(app, await createAccount(app, { name: 'Prairie Clinic' }));
    calendar = await createCalendar(api, {
      name: 'Dr. Who',
      timezone: ZONE,
      location: '1 Prairie Ave',
      hours: { monday: [{ start: '08:00', end: '18:00' }] },
    });
    type = await createAppointmentType(api, {
      name: 'Check-up',
      duration: 45,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
  });

  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await smtp?.close();
  });

  const email = `patient-${process.pid}@example.test`;
  let appointment: number;

  async function mails(count: number): Promise<ParsedMail[]> {
    return eventually(() => {
      const received = smtp.received(email);
      return received.length >= count ? received.map((m) => m.parsed) : undefined;
    });
  }

  it('confirms with a REQUEST: the appointment UID, SEQUENCE 0, its instants', async () => {
    const booked = await api.post('/appointments', {
      firstName: 'Rose',
      lastName: 'Tyler',
      email,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: FIRST.toISO(),
    });
    expect(booked.status).toBe(200);
    appointment = booked.body.id;
    const [confirmation] = await mails(1);
    expect(parseCalendar(calendarPart(confirmation))).toEqual([
      {
        method: 'REQUEST',
        uid: `appointment-${appointment}@localhost`,
        sequence: 0,
        start: FIRST.toMillis(),
        end: FIRST.plus({ minutes: 45 }).toMillis(),
        status: 'CONFIRMED',
        summary: 'Check-up (Prairie Clinic)',
      },
    ]);
  });

  it('reschedules with the same UID and a higher SEQUENCE, at the new instant (after the DST change)', async () => {
    const moved = await api.put(`/appointments/${appointment}/reschedule`, {
      datetime: MOVED.toISO(),
    });
    expect(moved.status).toBe(200);
    const [, notice] = await mails(2);
    expect(notice.subject).toMatch(/^Your appointment has been rescheduled/);
    expect(parseCalendar(calendarPart(notice))).toEqual([
      expect.objectContaining({
        method: 'REQUEST',
        uid: `appointment-${appointment}@localhost`,
        sequence: 1,
        start: MOVED.toMillis(),
        end: MOVED.plus({ minutes: 45 }).toMillis(),
      }),
    ]);
  });

  it("publishes the calendar's appointments and blocks at a secret, rotatable address", async () => {
    const blockStart = DateTime.fromISO('2031-11-10T12:00', { zone: ZONE });
    const block = await api.post('/blocks', {
      calendarID: calendar,
      start: blockStart.toISO(),
      end: blockStart.plus({ hours: 2 }).toISO(),
      notes: 'Lunch with the board',
    });
    expect(block.status).toBe(200);
    const canceled = await api.post('/appointments?admin=true', {
      firstName: 'Mickey',
      lastName: 'Smith',
      email: `mickey-${process.pid}@example.test`,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: FIRST.plus({ hours: 2 }).toISO(),
    });
    expect(canceled.status).toBe(200);
    expect((await api.put(`/appointments/${canceled.body.id}/cancel`, {})).status).toBe(200);

    const feed = await api.get(`/calendars/${calendar}/feed`);
    expect(feed.body).toEqual({
      url: expect.stringMatching(
        /^http:\/\/localhost:3000\/api\/v1\/calendar-feeds\/[0-9a-f]{64}\.ics$/,
      ),
    });
    // The same address until rotated.
    expect((await api.get(`/calendars/${calendar}/feed`)).body).toEqual(feed.body);
    const path = new URL(feed.body.url).pathname;
    const published = await app.inject({ method: 'GET', url: path });
    expect(published.statusCode).toBe(200);
    expect(published.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = parseCalendar(published.body);
    expect(events).toEqual([
      {
        method: 'PUBLISH',
        uid: `appointment-${appointment}@localhost`,
        sequence: 1,
        start: MOVED.toMillis(),
        end: MOVED.plus({ minutes: 45 }).toMillis(),
        status: 'CONFIRMED',
        summary: 'Check-up: Rose Tyler',
      },
      {
        method: 'PUBLISH',
        uid: `block-${block.body.id}@localhost`,
        sequence: 0,
        start: blockStart.toMillis(),
        end: blockStart.plus({ hours: 2 }).toMillis(),
        status: null,
        summary: 'Blocked',
      },
    ]);

    const rotated = await api.post(`/calendars/${calendar}/feed/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).not.toBe(feed.body.url);
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const fresh = await app.inject({ method: 'GET', url: new URL(rotated.body.url).pathname });
    expect(parseCalendar(fresh.body)).toEqual(events);
  });
});
