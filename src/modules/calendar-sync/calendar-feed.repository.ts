import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { Calendar } from '../catalog';
import { CalendarFeed } from './calendar-feed.entity';
import { lockRows } from '../../common/database/row-locks';

export interface FeedAppointmentRow {
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
  /** The live resources its type needs, `Room, Laser` (null: none). */
  resource_names: string | null;
}

export interface FeedBlockRow {
  id: number;
  starts_at: Date;
  ends_at: Date;
  created_at: Date;
  notes: string;
}

/** The calendars' feed secrets, and what a feed shows of its calendar. */
@Injectable()
export class CalendarFeedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The account's calendar: 404, or 403 for another account's (findOwned). */
  calendar(accountId: number, calendarId: number): Promise<Calendar> {
    return findOwned(this.dataSource.getRepository(Calendar), accountId, calendarId);
  }

  ofCalendar(calendarId: number, tx = this.dataSource.manager): Promise<CalendarFeed | null> {
    return tx.findOne(CalendarFeed, { where: { calendarId } });
  }

  /** Locks the calendar's row: its feed is issued or rotated by one transaction at a time. */
  async lockCalendar(tx: EntityManager, calendarId: number): Promise<void> {
    await lockRows(tx, 'calendars', [calendarId]);
  }

  async insert(tx: EntityManager, feed: CalendarFeed): Promise<void> {
    await tx.insert(CalendarFeed, feed);
  }

  async deleteOfCalendar(tx: EntityManager, calendarId: number): Promise<void> {
    await tx.delete(CalendarFeed, { calendarId });
  }

  /** The live calendar whose feed has this token's hash; null when there is none. */
  async calendarOfToken(tokenHash: string): Promise<Calendar | null> {
    const manager = this.dataSource.manager;
    const feed = await manager.findOne(CalendarFeed, { where: { tokenHash } });
    const calendar =
      feed &&
      (await manager.findOne(Calendar, {
        where: { id: feed.calendarId, accountId: feed.accountId },
      }));
    return calendar && !calendar.deletedAt ? calendar : null;
  }

  /**
   * The calendar's live appointments that end after `since`, the earliest `limit`: its own and the
   * collective ones it is a member of (docs/team-scheduling.md).
   */
  appointments(calendarId: number, since: Date, limit: number): Promise<FeedAppointmentRow[]> {
    return this.dataSource.query(
      `SELECT a.id, a.starts_at, a.ends_at, a.updated_at, a.sequence, a.first_name, a.last_name,
              a.email, a.phone, a.notes, t.name AS type_name,
              IF(t.uses_resources,
                 (SELECT GROUP_CONCAT(r.name ORDER BY r.id SEPARATOR ', ')
                    FROM appointment_type_resources x
                    JOIN resources r ON r.id = x.resource_id AND r.deleted_at IS NULL
                   WHERE x.appointment_type_id = t.id AND r.account_id = a.account_id),
                 NULL) AS resource_names
         FROM appointments a JOIN appointment_types t ON t.id = a.appointment_type_id
        WHERE a.id IN (
                SELECT o.id FROM appointments o WHERE o.calendar_id = ? AND o.ends_at > ?
                UNION ALL
                SELECT m.appointment_id FROM appointment_members m
                 WHERE m.calendar_id = ? AND m.busy_until > ?)
          AND a.canceled = 0 AND a.ends_at > ?
        ORDER BY a.starts_at, a.id LIMIT ?`,
      [calendarId, since, calendarId, since, since, limit],
    );
  }

  /** The calendar's blocks that end after `since`, the earliest `limit`. */
  blocks(calendarId: number, since: Date, limit: number): Promise<FeedBlockRow[]> {
    return this.dataSource.query(
      `SELECT id, starts_at, ends_at, created_at, notes FROM blocks
        WHERE calendar_id = ? AND ends_at > ? ORDER BY starts_at, id LIMIT ?`,
      [calendarId, since, limit],
    );
  }
}
