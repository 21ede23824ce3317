import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import type { DomainEvent } from '../outbox/domain-event';
import { DomainEventPublisher } from '../outbox/domain-event-publisher';
import { Outbox } from '../outbox/outbox.repository';
import { AccountEpochs } from './account-epochs';
import { retryLockConflicts } from './lock-retries';
import { RecentWrites } from './recent-writes';

/** Names the domain events of a unit of work: written to the outbox with its rows. */
export type Emit = (...events: DomainEvent[]) => void;

/** What a unit of work is for: the account it writes for (null: none), its isolation level. */
export interface WorkOptions {
  isolation?: IsolationLevel;
}

/**
 * The one way anything is written, by any process (API, worker, CLI): `run` opens a transaction,
 * runs the work in it (whole again when InnoDB gave up on a lock: a deadlock victim or a lock wait
 * timeout), writes the events the work emitted as `outbox` rows in the same transaction, and
 * commits. Then, and only then:
 * - the events are handed to the queue (DomainEventPublisher; without a queue, as in the CLI, the
 *   worker's relay hands them over within seconds);
 * - the account's write epoch is bumped (AccountEpochs), so that no process keeps serving an answer
 *   computed before the write (EpochCache);
 * - the account is marked for read-your-writes (RecentWrites), so that its next read goes to the
 *   primary, on whichever API pod it lands.
 *
 * Both marks are made whatever the outcome (a commit whose answer was lost may have committed), and
 * before `run` returns: before the response that reports the write leaves. No writer has anything
 * to remember beyond writing inside `run`.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly epochs: AccountEpochs,
    private readonly recentWrites: RecentWrites,
    @Optional() private readonly publisher?: DomainEventPublisher,
  ) {}

  async run<T>(
    accountId: number | null,
    work: (tx: EntityManager, emit: Emit) => Promise<T>,
    options: WorkOptions = {},
  ): Promise<T> {
    try {
      const { result, pending } = await retryLockConflicts(() =>
        this.transaction(options.isolation, async (tx) => {
          const events: DomainEvent[] = [];
          const result = await work(tx, (...emitted) => events.push(...emitted));
          return { result, pending: await Outbox.record(tx, events) };
        }),
      );
      this.publisher?.publishAfterCommit(pending);
      return result;
    } finally {
      if (accountId !== null) await this.marked(accountId);
    }
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
