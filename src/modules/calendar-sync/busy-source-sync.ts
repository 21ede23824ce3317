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
import { BusyKind, MAX_EXTERNAL_SPAN_MINUTES, type Span, markBusyKind } from '../availability';
import { type BusySource, passwordContext } from './busy-source.entity';
import { BusySourceRepository, type SourceFacts } from './busy-source.repository';
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

/**
 * A source unchanged by its ETag or ctag is still read whole this often: the window moves on with
 * the days, and what lay beyond it at the last read must come in.
 */
export const FULL_READ_EVERY_MS = 12 * 3600 * 1000;

/** Sources synced at once by one worker (each mostly waits on its server). */
const CONCURRENCY = 4;
/** Sources one pass claims at most. */
export const SYNC_BATCH = 50;

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
    private readonly sources: BusySourceRepository,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
    @Optional() private readonly metrics?: Metrics,
    @Optional() @Inject(ROOT_LOGGER) private readonly logger?: Logger,
  ) {}

  /**
   * One pass: claims the sources due (moving their next sync on by their account's interval, so
   * that another worker's pass skips them) and syncs them; returns how many it claimed.
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
          this.sources.recordUnchanged(tx, source.id, now),
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
        this.sources.recordFailure(tx, source.id, message, now),
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

  /**
   * The source's spans replaced whole, and its status, in one unit of work (see
   * BusySourceRepository.replaceSpans); false when the source was deleted meanwhile.
   */
  private async replaceSpans(
    source: BusySource,
    read: { spans: Span[]; events: number; versionTag: string | null },
    now: number,
  ): Promise<boolean> {
    const spans = storedSpans(read.spans);
    // The calendar's bit (see markBusyKind), committed on its own before the spans are written: as
    // exact as in their transaction (committed before any span can be, and never cleared), without
    // holding the calendar's lock, which bookings wait for, while a sync rewrites thousands of rows.
    if (spans.length > 0)
      await this.unitOfWork.run(source.accountId, (tx) =>
        markBusyKind(tx, BusyKind.external, source.calendarId, source.accountId),
      );
    return this.unitOfWork.run(source.accountId, (tx) =>
      this.sources.replaceSpans(tx, source, { ...read, spans }, now),
    );
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
