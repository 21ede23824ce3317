import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ICalCalendarMethod } from 'ical-generator';
import { addAppointmentEvent, newCalendar } from '../../common/calendar/appointment-ical';
import { Secrets } from '../../common/crypto/secrets';
import { findOwned } from '../../common/database/tenant-rows';
import { NotFoundError } from '../../common/errors/domain-error';
import { DAY } from '../../common/time/durations';
import { AppConfig } from '../../config/app-config';
import { Calendar } from '../catalog';
import type { CalendarFeedView } from './busy-source.view';
import { CalendarFeed } from './calendar-feed.entity';

/** A feed shows what ended in the last this many days, and everything ahead. */
export const FEED_PAST_DAYS = 30;
/** Events of each kind (appointments, blocks) a feed holds at most, the earliest first. */
export const FEED_MAX_EVENTS = 5000;

const TOKEN_FILE = /^([0-9a-f]{64})\.ics$/;

interface AppointmentRow {
  id: number;
  starts_at: Date;
  ends_at: Date;
  updated_at: Date;
  sequence: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  notes: string | null;
  type_name: string;
}

interface BlockRow {
  id: number;
  starts_at: Date;
  ends_at: Date;
  created_at: Date;
  notes: string;
}

/**
 * A calendar's schedule published as iCalendar, for its staff member to subscribe to from their own
 * calendar app: a secret URL (a random 256-bit token in the path, as Google's "secret address"),
 * shown again to the owner (the token is kept sealed) and found by its keyed hash. Rotating it ends
 * the old URL at once. The feed holds the calendar's live appointments and its blocks, from
 * FEED_PAST_DAYS ago onwards, with the appointments' own UIDs and SEQUENCEs.
 */
@Injectable()
export class CalendarFeedsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
  ) {}

  async get(accountId: number, calendarId: number): Promise<CalendarFeedView> {
    const calendar = await findOwned(
      this.dataSource.getRepository(Calendar),
      accountId,
      calendarId,
    );
    const existing = await this.dataSource.manager.findOne(CalendarFeed, {
      where: { calendarId: calendar.id },
    });
    if (existing)
      return this.view(this.secrets.decrypt(existing.sealedToken, context(calendar.id)));
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT id FROM calendars WHERE id = ? FOR UPDATE', [calendar.id]);
      const raced = await tx.findOne(CalendarFeed, { where: { calendarId: calendar.id } });
      if (raced) return this.view(this.secrets.decrypt(raced.sealedToken, context(calendar.id)));
      return this.view(await this.issue(tx, calendar));
    });
  }

  /** A new token: the old URL answers 404 from now on. */
  async rotate(accountId: number, calendarId: number): Promise<CalendarFeedView> {
    const calendar = await findOwned(
      this.dataSource.getRepository(Calendar),
      accountId,
      calendarId,
    );
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT id FROM calendars WHERE id = ? FOR UPDATE', [calendar.id]);
      await tx.delete(CalendarFeed, { calendarId: calendar.id });
      return this.view(await this.issue(tx, calendar));
    });
  }

  /** The feed of `file` (`<token>.ics`) as iCalendar text; 404 for anything else. */
  async render(file: string, now = Date.now()): Promise<string> {
    const token = TOKEN_FILE.exec(file)?.[1];
    if (token === undefined) throw new NotFoundError();
    const feed = await this.dataSource.manager.findOne(CalendarFeed, {
      where: { tokenHash: this.secrets.hash(token) },
    });
    const calendar =
      feed &&
      (await this.dataSource.manager.findOne(Calendar, {
        where: { id: feed.calendarId, accountId: feed.accountId },
      }));
    if (!feed || !calendar || calendar.deletedAt) throw new NotFoundError();
    const since = new Date(now - FEED_PAST_DAYS * DAY);
    const manager = this.dataSource.manager;
    const appointments: AppointmentRow[] = await manager.query(
      `SELECT a.id, a.starts_at, a.ends_at, a.updated_at, a.sequence, a.first_name, a.last_name,
              a.email, a.phone, a.notes, t.name AS type_name
         FROM appointments a JOIN appointment_types t ON t.id = a.appointment_type_id
        WHERE a.calendar_id = ? AND a.canceled = 0 AND a.ends_at > ?
        ORDER BY a.starts_at, a.id LIMIT ?`,
      [calendar.id, since, FEED_MAX_EVENTS],
    );
    const blocks: BlockRow[] = await manager.query(
      `SELECT id, starts_at, ends_at, created_at, notes FROM blocks
        WHERE calendar_id = ? AND ends_at > ? ORDER BY starts_at, id LIMIT ?`,
      [calendar.id, since, FEED_MAX_EVENTS],
    );
    const publicUrl = this.config.http.publicUrl;
    const ics = newCalendar(calendar.name, ICalCalendarMethod.PUBLISH);
    for (const a of appointments) {
      const client = `${a.first_name} ${a.last_name}`.trim();
      addAppointmentEvent(
        ics,
        {
          id: a.id,
          startsAt: a.starts_at,
          endsAt: a.ends_at,
          sequence: Number(a.sequence),
          canceled: false,
          summary: client === '' ? a.type_name : `${a.type_name}: ${client}`,
          description: [client, a.email, a.phone, a.notes ?? '']
            .filter((line) => line !== '')
            .join('\n'),
          location: calendar.location,
          updatedAt: a.updated_at,
        },
        publicUrl,
      );
    }
    const host = new URL(publicUrl).hostname;
    for (const b of blocks) {
      ics.createEvent({
        id: `block-${b.id}@${host}`,
        start: b.starts_at,
        end: b.ends_at,
        stamp: new Date(now),
        lastModified: b.created_at,
        summary: 'Blocked',
        description: b.notes === '' ? null : b.notes,
      });
    }
    return ics.toString();
  }

  private async issue(tx: EntityManager, calendar: Calendar): Promise<string> {
    const token = Secrets.generate(32);
    await tx.insert(CalendarFeed, {
      calendarId: calendar.id,
      accountId: calendar.accountId,
      tokenHash: this.secrets.hash(token),
      sealedToken: this.secrets.encrypt(token, context(calendar.id)),
      createdAt: new Date(),
    });
    return token;
  }

  private view(token: string): CalendarFeedView {
    return { url: `${this.config.http.publicUrl}/api/v1/calendar-feeds/${token}.ics` };
  }
}

function context(calendarId: number): string {
  return `calendar-feed:${calendarId}`;
}
