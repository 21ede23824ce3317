import { Injectable } from '@nestjs/common';
import { EpochCache } from '../../common/cache/epoch-cache';
import { AccountEpochs } from '../../common/database/account-epochs';
import { ReadReplicas } from '../../common/database/read-replicas';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';
import { timesKey } from './availability-answers';
import { AvailabilityQueries } from './availability-queries';
import type {
  AvailableClassesQuery,
  AvailableDatesQuery,
  AvailableTimesQuery,
} from './availability.requests';
import type {
  AvailableClass,
  AvailableDate,
  AvailableTime,
  CheckedTime,
} from './availability.views';

/**
 * `/availability/*` (AvailabilityQueries), read where ReadReplicas sends an informative read: on a
 * serving replica unless the account wrote within the read-your-writes window. What they answer
 * only informs: a booking checks again, under its calendar locks, on the primary (SlotPlacement).
 * `/times` answers are kept while their account's write epoch holds (EpochCache).
 */
@Injectable()
export class AvailabilityService {
  private readonly answers: EpochCache<string, readonly AvailableTime[]>;

  constructor(
    private readonly reads: ReadReplicas,
    private readonly epochs: AccountEpochs,
    config: AppConfig,
  ) {
    this.answers = new EpochCache(config.availability.cacheTtlMs);
  }

  dates(account: Account, query: AvailableDatesQuery, now = Date.now()): Promise<AvailableDate[]> {
    return this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).dates(account, query, now),
    );
  }

  async times(
    account: Account,
    query: AvailableTimesQuery,
    now = Date.now(),
  ): Promise<readonly AvailableTime[]> {
    // The epoch before the data: a write committed after this read has changed it (AccountEpochs).
    const epoch = await this.epochs.current(account.id);
    const key = epoch === undefined ? '' : timesKey(account, query);
    const kept = epoch === undefined ? undefined : this.answers.get(key, epoch, now);
    if (kept !== undefined) return kept;
    const timed = await this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).timedTimes(account, query, now),
    );
    if (epoch !== undefined) this.answers.keep(key, epoch, timed, now);
    return timed.answer;
  }

  classes(
    account: Account,
    query: AvailableClassesQuery,
    now = Date.now(),
  ): Promise<AvailableClass[]> {
    return this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).classes(account, query, now),
    );
  }

  checkTimes(
    account: Account,
    items: Record<string, unknown>[],
    now = Date.now(),
  ): Promise<CheckedTime[]> {
    return this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).checkTimes(account, items, now),
    );
  }
}
