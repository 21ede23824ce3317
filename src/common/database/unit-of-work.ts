import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import type { DomainEvent } from '../outbox/domain-event';
import { DomainEventPublisher } from '../outbox/domain-event-publisher';
import { Outbox } from '../outbox/outbox.repository';
import { AccountEpochs } from './account-epochs';
import { retryLockConflicts } from './lock-retries';
import type { LockConflict } from './mysql-errors';
import { Metrics } from '../metrics/metrics';
import { RecentWrites } from './recent-writes';

/** Names the domain events of a unit of work: written to the outbox with its rows. */
export type Emit = (...events: DomainEvent[]) => void;

/**
 * The one way anything is written, by any process: `run` opens a transaction, runs the work in it
 * (whole again when InnoDB gave up on a lock or Galera's certification refused it, each retry
 * counted in `db_transaction_retries_total`), writes the emitted events as `outbox` rows in the
 * same transaction, and commits. Then the events are handed to the queue (without one, the relay
 * does it), the account's write epoch is bumped (AccountEpochs: no kept answer outlives the write)
 * and the account marked for read-your-writes (RecentWrites). Both marks are made whatever the
 * outcome (a lost answer may have committed), before `run` returns.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly epochs: AccountEpochs,
    private readonly recentWrites: RecentWrites,
    @Optional() private readonly publisher?: DomainEventPublisher,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  private readonly retried = (reason: LockConflict) => this.metrics?.countTransactionRetry(reason);

  async run<T>(
    accountId: number | null,
    work: (tx: EntityManager, emit: Emit) => Promise<T>,
    options: { isolation?: IsolationLevel } = {},
  ): Promise<T> {
    try {
      const { result, pending } = await retryLockConflicts(
        () =>
          this.transaction(options.isolation, async (tx) => {
            const events: DomainEvent[] = [];
            const result = await work(tx, (...emitted) => events.push(...emitted));
            return { result, pending: await Outbox.record(tx, events) };
          }),
        this.retried,
      );
      this.publisher?.publishAfterCommit(pending);
      return result;
    } finally {
      if (accountId !== null) await this.marked(accountId);
    }
  }

  /**
   * `work` in a transaction that is always rolled back: what a write would do now, under the locks
   * it takes, with nothing kept (no event, no mark). For checks that must answer exactly as the
   * write would (`POST /availability/check-series`).
   */
  async rehearse<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    try {
      await retryLockConflicts(
        () =>
          this.transaction(undefined, async (tx) => {
            throw new Rehearsed(await work(tx));
          }),
        this.retried,
      );
    } catch (e) {
      if (e instanceof Rehearsed) return e.result as T;
      throw e;
    }
    throw new Error('A rehearsal always rolls back');
  }

  private async marked(accountId: number): Promise<void> {
    await Promise.all([this.epochs.bump(accountId), this.recentWrites.mark(accountId)]);
  }

  private transaction<T>(
    isolation: IsolationLevel | undefined,
    work: (tx: EntityManager) => Promise<T>,
  ): Promise<T> {
    return isolation === undefined
      ? this.dataSource.transaction(work)
      : this.dataSource.transaction(isolation, work);
  }
}

/** What rolls a rehearsal back, carrying its result out of the transaction. */
class Rehearsed extends Error {
  constructor(readonly result: unknown) {
    super('rehearsed: rolled back');
  }
}
