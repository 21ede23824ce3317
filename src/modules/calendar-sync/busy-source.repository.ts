import { Injectable } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type EntityManager } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-error';
import { Calendar } from '../catalog';
import type { ExpandedBusy } from './busy-expansion';
import { BusySource } from './busy-source.entity';
import { CalendarFeed } from './calendar-feed.entity';
import { ExternalBusySpan } from './external-busy-span.entity';
import { lockRows } from '../../common/database/row-locks';

/** The module's tables, registered for its API and worker modules (TypeORM loads those named). */
export const calendarSyncTables = TypeOrmModule.forFeature([
  BusySource,
  CalendarFeed,
  ExternalBusySpan,
]);

const INSERT_BATCH = 1000;

/** A source's busy time read whole, and the tag of the version read. */
export type BusyRead = ExpandedBusy & { versionTag: string | null };

/** What a sync reads of a source's calendar: its zone and the days ahead to read. */
export interface SourceFacts {
  timezone: string;
  days: number;
}

/** Busy sources and the busy time they brought (`external_busy_spans`). */
@Injectable()
export class BusySourceRepository extends RepositoryOf(BusySource) {
  /** The account's calendar: 404, or 403 for another account's (findOwned); locked when in `tx`. */
  calendar(accountId: number, calendarId: number, tx?: EntityManager): Promise<Calendar> {
    const calendars = (tx ?? this.dataSource.manager).getRepository(Calendar);
    return findOwned(calendars, accountId, calendarId, { forUpdate: tx !== undefined });
  }

  /** The calendar's sources, in the order they were added. */
  async ofCalendar(accountId: number, calendarId: number): Promise<BusySource[]> {
    await this.calendar(accountId, calendarId);
    return this.rows().find({ where: { calendarId, accountId }, order: { id: 'ASC' } });
  }

  /** A source, found under its own calendar only (else 404); another account's is 403. */
  async inCalendar(accountId: number, calendarId: number, id: number): Promise<BusySource> {
    await this.calendar(accountId, calendarId);
    const source = await this.rows().findOne({ where: { id } });
    if (!source || source.calendarId !== calendarId) throw new NotFoundError();
    if (source.accountId !== accountId) throw new ForbiddenError();
    return source;
  }

  countOfCalendar(tx: EntityManager, calendarId: number): Promise<number> {
    return this.rows(tx).count({ where: { calendarId } });
  }

  async sealPassword(tx: EntityManager, id: number, sealedPassword: string): Promise<void> {
    await this.rows(tx).update({ id }, { sealedPassword });
  }

  /** The source and the busy time it brought. */
  async remove(tx: EntityManager, id: number): Promise<void> {
    await tx.query('DELETE FROM busy_sources WHERE id = ?', [id]);
    await tx.query('DELETE FROM external_busy_spans WHERE source_id = ?', [id]);
  }

  /** Sources whose sync is due, the longest due first, with their account's interval. */
  due(now: number, limit: number): Promise<{ id: number; next: Date; minutes: number }[]> {
    return this.dataSource.query(
      `SELECT s.id, s.next_sync_at AS next, a.calendar_sync_minutes AS minutes
         FROM busy_sources s JOIN accounts a ON a.id = s.account_id
        WHERE s.next_sync_at <= ? ORDER BY s.next_sync_at LIMIT ?`,
      [new Date(now), limit],
    );
  }

  /** Moves a due source's next sync on, if no one else did since it was read as `next`. */
  async claim(tx: EntityManager, id: number, next: Date, nextSyncAt: Date): Promise<boolean> {
    const result: { affectedRows: number } = await tx.query(
      'UPDATE busy_sources SET next_sync_at = ? WHERE id = ? AND next_sync_at = ?',
      [nextSyncAt, id, next],
    );
    return result.affectedRows === 1;
  }

  byId(id: number): Promise<BusySource | null> {
    return this.rows().findOne({ where: { id } });
  }

  /**
   * The calendar's zone and the days ahead to read (the account's maxDaysInAdvance, or a type's
   * larger one); null when the calendar is gone.
   */
  async facts(source: BusySource): Promise<SourceFacts | null> {
    const [row]: { timezone: string; days: number }[] = await this.dataSource.query(
      `SELECT c.timezone,
                GREATEST(a.max_days_in_advance, COALESCE((SELECT MAX(t.max_days_in_advance)
                  FROM appointment_types t WHERE t.account_id = a.id AND t.deleted_at IS NULL), 0))
                  AS days
           FROM calendars c JOIN accounts a ON a.id = c.account_id
          WHERE c.id = ? AND c.account_id = ? AND c.deleted_at IS NULL`,
      [source.calendarId, source.accountId],
    );
    return row ? { timezone: row.timezone, days: Number(row.days) } : null;
  }

  /** A sync that failed with `error`, or (null) found the source unchanged. */
  async recordAttempt(tx: EntityManager, id: number, error: string | null, now: number) {
    await tx.query(
      'UPDATE busy_sources SET state = ?, last_error = ?, last_sync_at = ? WHERE id = ?',
      [error === null ? 'ok' : 'error', error, new Date(now), id],
    );
  }

  /**
   * The source's spans replaced whole, and its status, its row locked first (two syncs of one
   * source write one after the other); false, writing nothing, when the source is gone.
   */
  async replaceSpans(
    tx: EntityManager,
    source: BusySource,
    read: BusyRead,
    now: number,
  ): Promise<boolean> {
    if ((await lockRows(tx, 'busy_sources', [source.id])) === 0) return false;
    await tx.query('DELETE FROM external_busy_spans WHERE source_id = ?', [source.id]);
    for (let i = 0; i < read.spans.length; i += INSERT_BATCH) {
      const batch = read.spans.slice(i, i + INSERT_BATCH);
      await tx.query(
        `INSERT INTO external_busy_spans (account_id, calendar_id, source_id, starts_at, ends_at)
         VALUES ${batch.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        batch.flatMap((s) => [
          source.accountId,
          source.calendarId,
          source.id,
          new Date(s.from),
          new Date(s.until),
        ]),
      );
    }
    await tx.query(
      `UPDATE busy_sources SET state = 'ok', last_error = NULL, last_sync_at = ?,
         last_success_at = ?, events_read = ?, version_tag = ? WHERE id = ?`,
      [
        new Date(now),
        new Date(now),
        read.events,
        read.versionTag?.slice(0, 1000) ?? null,
        source.id,
      ],
    );
    return true;
  }

  /** Sources by the state of their last sync, every account's (the worker's metric). */
  async countByState(): Promise<Map<string, number>> {
    const rows: { state: string; n: number }[] = await this.dataSource.query(
      'SELECT state, COUNT(*) AS n FROM busy_sources GROUP BY state',
    );
    return new Map(rows.map((r) => [r.state, Number(r.n)]));
  }
}
