import { Injectable } from '@nestjs/common';
import { ReadReplicas } from '../../common/database/read-replicas';
import type { Account } from '../accounts';
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
 */
@Injectable()
export class AvailabilityService {
  constructor(private readonly reads: ReadReplicas) {}

  dates(account: Account, query: AvailableDatesQuery, now = Date.now()): Promise<AvailableDate[]> {
    return this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).dates(account, query, now),
    );
  }

  times(account: Account, query: AvailableTimesQuery, now = Date.now()): Promise<AvailableTime[]> {
    return this.reads.read(account.id, (m) =>
      new AvailabilityQueries(m).times(account, query, now),
    );
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
