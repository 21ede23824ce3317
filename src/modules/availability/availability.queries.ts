import { Injectable } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { EpochCache, type TimedAnswer } from '../../common/cache/epoch-cache';
import { AccountEpochs } from '../../common/database/account-epochs';
import { ReadReplicas } from '../../common/database/read-replicas';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';
import { timesKey } from './availability-answers';
import type {
  AvailableClassesRequest,
  AvailableDatesRequest,
  AvailableTimesRequest,
} from './availability.requests';
import type {
  AvailableClass,
  AvailableDate,
  AvailableTime,
  CheckedTime,
  DatesWithTimes,
} from './availability.views';
import { AvailableSlots } from './available-slots';

/*
 * `/availability/*` (AvailableSlots), read where ReadReplicas sends an informative read (a replica,
 * unless the account wrote lately): a booking checks again under its locks, on the primary.
 */

/** A question of the account's (the principal's, as authenticated), answered as of `now`. */
abstract class AvailabilityQuery<Q, R> extends Query<R> {
  constructor(
    readonly account: Account,
    readonly request: Q,
    readonly now = Date.now(),
  ) {
    super();
  }
}

export class AvailableDatesQuery extends AvailabilityQuery<
  AvailableDatesRequest,
  AvailableDate[]
> {}

@QueryHandler(AvailableDatesQuery)
export class AvailableDatesHandler implements IQueryHandler<AvailableDatesQuery> {
  constructor(private readonly reads: ReadReplicas) {}

  execute({ account, request, now }: AvailableDatesQuery): Promise<AvailableDate[]> {
    return this.reads.read(account.id, (m) => new AvailableSlots(m).dates(account, request, now));
  }
}

/**
 * A handler whose answers are read where ReadReplicas sends them and kept in an EpochCache while
 * their account's write epoch holds (docs/availability-cache.md): the epoch is read before the
 * data, so a write committed after the read has changed it; without one (Redis away) none is kept.
 */
@Injectable()
abstract class KeptAnswersHandler<V extends object> {
  private readonly kept: EpochCache<string, V>;

  constructor(
    private readonly reads: ReadReplicas,
    private readonly epochs: AccountEpochs,
    config: AppConfig,
  ) {
    this.kept = new EpochCache(config.availability.cacheTtlMs);
  }

  protected async answer(
    account: Account,
    key: string,
    now: number,
    read: (m: EntityManager) => Promise<TimedAnswer<V>>,
  ): Promise<V> {
    const epoch = await this.epochs.current(account.id);
    const kept = epoch === undefined ? undefined : this.kept.get(key, epoch, now);
    if (kept !== undefined) return kept;
    const timed = await this.reads.read(account.id, read);
    if (epoch !== undefined) this.kept.keep(key, epoch, timed, now);
    return timed.answer;
  }
}

/**
 * The scheduling page's date step: the month's dates and one day's times, from one read of the
 * data (what `AvailableDatesQuery` and `AvailableTimesQuery` answer), kept as `/times` answers are.
 */
export class AvailableDatesWithTimesQuery extends AvailabilityQuery<
  AvailableDatesRequest & { date: string },
  DatesWithTimes
> {}

@QueryHandler(AvailableDatesWithTimesQuery)
export class AvailableDatesWithTimesHandler extends KeptAnswersHandler<DatesWithTimes> {
  execute({ account, request, now }: AvailableDatesWithTimesQuery): Promise<DatesWithTimes> {
    const key = JSON.stringify([timesKey(account, request), request.month]);
    return this.answer(account, key, now, (m) =>
      new AvailableSlots(m).datesWithTimes(account, request, now),
    );
  }
}

export class AvailableTimesQuery extends AvailabilityQuery<
  AvailableTimesRequest,
  readonly AvailableTime[]
> {}

@QueryHandler(AvailableTimesQuery)
export class AvailableTimesHandler extends KeptAnswersHandler<readonly AvailableTime[]> {
  execute({ account, request, now }: AvailableTimesQuery): Promise<readonly AvailableTime[]> {
    return this.answer(account, timesKey(account, request), now, (m) =>
      new AvailableSlots(m).timedTimes(account, request, now),
    );
  }
}

export class AvailableClassesQuery extends AvailabilityQuery<
  AvailableClassesRequest,
  AvailableClass[]
> {}

@QueryHandler(AvailableClassesQuery)
export class AvailableClassesHandler implements IQueryHandler<AvailableClassesQuery> {
  constructor(private readonly reads: ReadReplicas) {}

  execute({ account, request, now }: AvailableClassesQuery): Promise<AvailableClass[]> {
    return this.reads.read(account.id, (m) => new AvailableSlots(m).classes(account, request, now));
  }
}

/** Each time (a JSON object as sent) checked as POST /appointments would check it. */
export class CheckTimesQuery extends AvailabilityQuery<Record<string, unknown>[], CheckedTime[]> {}

@QueryHandler(CheckTimesQuery)
export class CheckTimesHandler implements IQueryHandler<CheckTimesQuery> {
  constructor(private readonly reads: ReadReplicas) {}

  execute({ account, request, now }: CheckTimesQuery): Promise<CheckedTime[]> {
    return this.reads.read(account.id, (m) =>
      new AvailableSlots(m).checkTimes(account, request, now),
    );
  }
}
