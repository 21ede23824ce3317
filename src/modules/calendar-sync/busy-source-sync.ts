import { Inject, Injectable, Optional } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { Metrics } from '../../common/metrics/metrics';
import { ByteBudget } from '../../common/net/bounded-body';
import { DAY, MINUTE } from '../../common/time/durations';
import { AppConfig } from '../../config/app-config';
import {
  BusyKind,
  MAX_EXTERNAL_SPAN_MINUTES,
  type Span,
  markBusyKind,
  mergeSpans,
} from '../availability';
import { type BusySource, passwordContext } from './busy-source.entity';
import { type BusyRead, BusySourceRepository, type SourceFacts } from './busy-source.repository';
import { BusyExpansion } from './busy-expansion';
import { LARGE_READ_BYTES, LargeReads } from './large-reads';
import { sourceFailure } from './source-errors';
import { readSource } from './source-readers';

/** What one sync came to (the tests); a failure's `error` is the source's `lastError`. */
export type SyncOutcome =
  | { kind: 'read'; events: number }
  | { kind: 'unchanged' }
  | { kind: 'failed'; error: string }
  | { kind: 'gone' };

/** A source unchanged by its ETag or ctag is still read whole this often: the window moves on. */
export const FULL_READ_EVERY_MS = 12 * 3600 * 1000;

/** Sources synced at once by one worker (each mostly waits on its server). */
const CONCURRENCY = 4;
export const SYNC_BATCH = 50;

/**
 * Reads busy sources and stores their busy time, over a window from a day ago (an event in progress
 * still blocks) to the furthest a type may be booked and two days more (a date read in any zone).
 * A good read replaces the source's spans whole, in one transaction; a failed one leaves them and
 * records why (`lastError` for the owner, the detail in the log). What a source sends is bounded:
 * its bytes (CALENDAR_SYNC_MAX_BYTES, all answers), its events and occurrences (ExpansionLimits).
 */
@Injectable()
export class BusySourceSync {
  /** Aborted on shutdown: syncs in flight end at once (as failed; the next worker reads them). */
  private readonly stopping = new AbortController();
  private readonly largeReads = new LargeReads();
  /** The syncs syncDue started that have not ended (CONCURRENCY at most). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly sources: BusySourceRepository,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    @Optional() private readonly metrics?: Metrics,
    @Optional() @Inject(ROOT_LOGGER) private readonly logger?: Logger,
  ) {}

  /**
   * Claims the sources due (moving their next sync on) and starts their syncs; returns how many.
   * A pass waits for a free slot to start each one, never for a sync to end: a source that answers
   * slowly (up to CALENDAR_SYNC_TIMEOUT_MS) holds its own slot, not the next pass, so a source
   * added meanwhile is read at the next scan beside it. settled() waits for the syncs started.
   */
  async syncDue(now = Date.now()): Promise<number> {
    if (this.stopping.signal.aborted) return 0;
    const due = await this.sources.due(now, SYNC_BATCH);
    const claimed: number[] = [];
    for (const row of due) {
      const next = new Date(now + Number(row.minutes) * MINUTE);
      // Only the schedule moves, which no answer is computed from: no account to mark.
      const won = await this.unitOfWork.run(null, (tx) =>
        this.sources.claim(tx, row.id, row.next, next),
      );
      if (won) claimed.push(Number(row.id));
    }
    for (const id of claimed) {
      while (this.running.size >= CONCURRENCY) await Promise.race(this.running);
      if (this.stopping.signal.aborted) break;
      const running: Promise<void> = this.sync(id, now).then(
        () => undefined,
        (err: unknown) => this.logger?.warn({ err, sourceId: id }, 'calendar sync not recorded'),
      );
      this.running.add(running);
      void running.finally(() => this.running.delete(running));
    }
    return claimed.length;
  }

  /** Resolves when every sync started by syncDue so far has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Syncs one source now (a new source's first sync, the worker's passes, the tests). */
  async sync(sourceId: number, now = Date.now()): Promise<SyncOutcome> {
    const source = await this.sources.byId(sourceId);
    const facts = source && (await this.sources.facts(source));
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
        await this.unitOfWork.run(source.accountId, (tx) =>
          this.sources.recordAttempt(tx, source.id, null, now),
        );
      } else {
        const replaced = await this.replaceSpans(source, read, now);
        outcome = replaced ? { kind: 'read', events: read.events } : { kind: 'gone' };
      }
    } catch (e) {
      const { message, detail } = sourceFailure(e, signal);
      this.logger?.warn(
        { sourceId: source.id, accountId: source.accountId, type, detail },
        'calendar sync failed',
      );
      outcome = { kind: 'failed', error: message };
      await this.unitOfWork.run(source.accountId, (tx) =>
        this.sources.recordAttempt(tx, source.id, message, now),
      );
    }
    this.metrics?.calendarSyncDuration.observe({ type }, (performance.now() - started) / 1000);
    if (outcome.kind !== 'gone') this.metrics?.calendarSyncs.inc({ type, outcome: outcome.kind });
    if (outcome.kind === 'read') this.metrics?.calendarEventsRead.inc({ type }, outcome.events);
    return outcome;
  }

  /**
   * The source read and each text expanded as it arrives; past a megabyte, one such sync of the
   * process at a time (LargeReads), the turn given up before the spans are written.
   */
  private async readBusy(
    source: BusySource,
    facts: SourceFacts,
    { window, signal, fresh }: { window: Span; signal: AbortSignal; fresh: boolean },
  ): Promise<{ kind: 'unchanged' } | ({ kind: 'read' } & BusyRead)> {
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

  stop(): void {
    this.stopping.abort();
  }

  /** The source's spans and status replaced in one unit of work; false if it was deleted since. */
  private async replaceSpans(source: BusySource, read: BusyRead, now: number): Promise<boolean> {
    const spans = storedSpans(read.spans);
    // The calendar's bit (markBusyKind) committed first, on its own: as exact as in the spans'
    // transaction (before any span, never cleared), without holding the calendar's lock, which
    // bookings wait for, while thousands of rows are written.
    if (spans.length > 0)
      await this.unitOfWork.run(source.accountId, (tx) =>
        markBusyKind(tx, BusyKind.external, source.calendarId, source.accountId),
      );
    return this.unitOfWork.run(source.accountId, (tx) =>
      this.sources.replaceSpans(tx, source, { ...read, spans }, now),
    );
  }
}

/** Spans merged where they overlap, then cut into pieces of a day at most (availability's read). */
export function storedSpans(spans: Span[]): Span[] {
  const piece = MAX_EXTERNAL_SPAN_MINUTES * MINUTE;
  return mergeSpans(spans).flatMap(({ from, until }) => {
    const pieces: Span[] = [];
    for (let start = from; start < until; start += piece)
      pieces.push({ from: start, until: Math.min(until, start + piece) });
    return pieces;
  });
}
