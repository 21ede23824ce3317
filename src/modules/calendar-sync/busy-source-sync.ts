import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { AccountEpochs } from '../../common/database/account-epochs';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { Metrics } from '../../common/metrics/metrics';
import { ByteBudget } from '../../common/net/bounded-body';
import { DAY, MINUTE } from '../../common/time/durations';
import { AppConfig } from '../../config/app-config';
import { BusyKind, MAX_EXTERNAL_SPAN_MINUTES, type Span, markBusyKind } from '../availability';
import { BusySource } from './busy-source.entity';
import { BusyExpansion } from './busy-expansion';
import { passwordContext } from './busy-sources.service';
import { LARGE_READ_BYTES, LargeReads } from './large-reads';
import { sourceFailure } from './source-errors';
import { readSource } from './source-readers';

/** What one sync came to (the tests); a failure's `error` is the source's `lastError`. */
export type SyncOutcome =
  | { kind: 'read'; events: number }
  | { kind: 'unchanged' }
  | { kind: 'failed'; error: string }
  | { kind: 'gone' };

/**
 * A source unchanged by its ETag or ctag is still read whole this often: the window moves on with
 * the days, and what lay beyond it at the last read must come in.
 */
export const FULL_READ_EVERY_MS = 12 * 3600 * 1000;

/** Sources synced at once by one worker (each mostly waits on its server). */
const CONCURRENCY = 4;
/** Sources one pass claims at most. */
export const SYNC_BATCH = 50;
const INSERT_BATCH = 1000;

interface SourceFacts {
  timezone: string;
  days: number;
}

/**
 * Reads busy sources and stores their busy time (the worker's side of calendar sync).
 *
 * The window is from a day ago (an event in progress still blocks) to the furthest any of the
 * account's types may be booked (the account's maxDaysInAdvance, or a type's larger one) and two
 * days more (a date read in any zone). A good read replaces the source's spans whole, in one
 * transaction; a failed one leaves them and records why (`state: error`, `lastError` in the owner's
 * words, the detail in the log). What a source sends is bounded: its bytes (CALENDAR_SYNC_MAX_BYTES,
 * all its answers together, streamed), its events and busy occurrences (ExpansionLimits).
 */
@Injectable()
export class BusySourceSync {
  /** Aborted on shutdown: syncs in flight end at once (as failed; the next worker reads them). */
  private readonly stopping = new AbortController();
  private readonly largeReads = new LargeReads();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
    private readonly epochs: AccountEpochs,
    @Optional() private readonly metrics?: Metrics,
    @Optional() @Inject(ROOT_LOGGER) private readonly logger?: Logger,
  ) {}

  /**
   * One pass: claims the sources due (moving their next sync on by their account's interval, so
   * that another worker's pass skips them) and syncs them; returns how many it claimed.
   */
  async syncDue(now = Date.now()): Promise<number> {
    if (this.stopping.signal.aborted) return 0;
    const due: { id: number; next: Date; minutes: number }[] = await this.dataSource.query(
      `SELECT s.id, s.next_sync_at AS next, a.calendar_sync_minutes AS minutes
         FROM busy_sources s JOIN accounts a ON a.id = s.account_id
        WHERE s.next_sync_at <= ? ORDER BY s.next_sync_at LIMIT ?`,
      [new Date(now), SYNC_BATCH],
    );
    const claimed: number[] = [];
    for (const row of due) {
      const result: { affectedRows: number } = await this.dataSource.query(
        'UPDATE busy_sources SET next_sync_at = ? WHERE id = ? AND next_sync_at = ?',
        [new Date(now + Number(row.minutes) * MINUTE), row.id, row.next],
      );
      if (result.affectedRows === 1) claimed.push(Number(row.id));
    }
    const queue = [...claimed];
    const run = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift())
        if (!this.stopping.signal.aborted) await this.sync(id, now);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, run));
    return claimed.length;
  }

  /** Syncs one source now (a new source's first sync, the worker's passes, the tests). */
  async sync(sourceId: number, now = Date.now()): Promise<SyncOutcome> {
    const source = await this.dataSource.manager.findOne(BusySource, { where: { id: sourceId } });
    const facts = source && (await this.facts(source));
    if (!source || !facts) return { kind: 'gone' };
    const window: Span = { from: now - DAY, until: now + (facts.days + 2) * DAY };
    const fresh =
      source.lastSuccessAt !== null && now - source.lastSuccessAt.getTime() < FULL_READ_EVERY_MS;
    const started = performance.now();
    const type = source.type;
    const signal = AbortSignal.any([
      AbortSignal.timeout(this.config.calendarSync.timeoutMs),
      this.stopping.signal,
    ]);
    let outcome: SyncOutcome;
    try {
      const read = await this.readBusy(source, facts, { window, signal, fresh });
      if (read.kind === 'unchanged') {
        outcome = { kind: 'unchanged' };
        await this.recordUnchanged(source.id, now);
      } else {
        const { spans, events } = read;
        // The calendar's busy time rewritten: the account's kept availability answers are stale.
        const replaced = await this.epochs.writing(source.accountId, () =>
          this.replaceSpans(source, spans, events, read.versionTag, now),
        );
        outcome = replaced ? { kind: 'read', events } : { kind: 'gone' };
      }
    } catch (e) {
      const { message, detail } = sourceFailure(e, signal);
      this.logger?.warn(
        { sourceId: source.id, accountId: source.accountId, type, detail },
        'calendar sync failed',
      );
      outcome = { kind: 'failed', error: message };
      await this.dataSource.query(
        `UPDATE busy_sources SET state = 'error', last_error = ?, last_sync_at = ? WHERE id = ?`,
        [message, new Date(now), source.id],
      );
    }
    this.metrics?.calendarSyncDuration.observe({ type }, (performance.now() - started) / 1000);
    if (outcome.kind !== 'gone') this.metrics?.calendarSyncs.inc({ type, outcome: outcome.kind });
    if (outcome.kind === 'read') this.metrics?.calendarEventsRead.inc({ type }, outcome.events);
    return outcome;
  }

  /**
   * The source read and its busy time expanded, each text as it arrives; past its first megabyte,
   * one sync of the process at a time (LargeReads), its turn given up once its texts are expanded,
   * before the spans are written.
   */
  private async readBusy(
    source: BusySource,
    facts: SourceFacts,
    { window, signal, fresh }: { window: Span; signal: AbortSignal; fresh: boolean },
  ): Promise<
    | { kind: 'unchanged' }
    | { kind: 'read'; spans: Span[]; events: number; versionTag: string | null }
  > {
    const expansion = new BusyExpansion(window, facts.timezone, this.config.calendarSync);
    let leave: (() => void) | undefined;
    const gate = {
      freeBytes: LARGE_READ_BYTES,
      enter: async () => void (leave = await this.largeReads.enter(signal)),
    };
    try {
      const read = await readSource(
        {
          type: source.type,
          url: source.url,
          username: source.username,
          password: source.sealedPassword
            ? this.secrets.decrypt(source.sealedPassword, passwordContext(source.id))
            : '',
        },
        {
          policy: this.config.calendarSync,
          signal,
          budget: new ByteBudget(this.config.calendarSync.maxBytes, gate),
          knownTag: fresh ? source.versionTag : null,
          window,
          onText: (text) => expansion.add(text),
        },
      );
      if (read.kind === 'unchanged') return read;
      return { kind: 'read', ...expansion.result(), versionTag: read.versionTag };
    } finally {
      leave?.();
    }
  }

  /** Ends the syncs in flight, and starts no more. */
  stop(): void {
    this.stopping.abort();
  }

  /** The calendar's zone and the days ahead to read; null when the calendar is gone. */
  private async facts(source: BusySource): Promise<SourceFacts | null> {
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

  private async recordUnchanged(sourceId: number, now: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE busy_sources SET state = 'ok', last_error = NULL, last_sync_at = ? WHERE id = ?`,
      [new Date(now), sourceId],
    );
  }

  /**
   * The source's spans replaced whole, and its status, in one transaction, its row locked first
   * (two syncs of one source write one after the other; a source deleted meanwhile gets none).
   */
  private async replaceSpans(
    source: BusySource,
    spans: Span[],
    events: number,
    versionTag: string | null,
    now: number,
  ): Promise<boolean> {
    const rows = storedSpans(spans);
    // The calendar's bit (see markBusyKind), committed on its own before the spans are written: as
    // exact as in their transaction (committed before any span can be, and never cleared), without
    // holding the calendar's lock, which bookings wait for, while a sync rewrites thousands of rows.
    if (rows.length > 0)
      await markBusyKind(
        this.dataSource.manager,
        BusyKind.external,
        source.calendarId,
        source.accountId,
      );
    return this.dataSource.transaction(async (tx: EntityManager) => {
      const locked: { id: number }[] = await tx.query(
        'SELECT id FROM busy_sources WHERE id = ? FOR UPDATE',
        [source.id],
      );
      if (locked.length === 0) return false;
      await tx.query('DELETE FROM external_busy_spans WHERE source_id = ?', [source.id]);
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        const batch = rows.slice(i, i + INSERT_BATCH);
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
        [new Date(now), new Date(now), events, versionTag?.slice(0, 1000) ?? null, source.id],
      );
      return true;
    });
  }
}

/**
 * Spans as stored: merged where they overlap (fewer rows), then cut into pieces of at most a day,
 * which availability's read needs (see MAX_EXTERNAL_SPAN_MINUTES).
 */
export function storedSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.from <= last.until) last.until = Math.max(last.until, span.until);
    else merged.push({ ...span });
  }
  const piece = MAX_EXTERNAL_SPAN_MINUTES * MINUTE;
  return merged.flatMap(({ from, until }) => {
    const pieces: Span[] = [];
    for (let start = from; start < until; start += piece)
      pieces.push({ from: start, until: Math.min(until, start + piece) });
    return pieces;
  });
}
