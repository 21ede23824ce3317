import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { formatInZone } from '../../common/time/datetimes';
import type { Account } from '../accounts';
import { localDateBounds } from '../availability';
import { weightOf } from '../catalog';
import { AssignmentStatsRepository } from './assignment-stats.repository';
import type {
  AssignmentStatsRequest,
  AssignmentStatsView,
  CalendarStats,
} from './assignment-stats';

export class AssignmentStatsQuery extends Query<AssignmentStatsView> {
  constructor(
    readonly account: Account,
    readonly typeId: number,
    readonly request: AssignmentStatsRequest,
  ) {
    super();
  }
}

/** Shares are shown to 4 decimals. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Three reads, none locking: the type (404, or 403 for another account's; a deleted type still
 * answers: findOwned), its live calendars, and one pass over the type's appointments grouped by calendar
 * (the count in the range, the latest creation whatever the range).
 */
@QueryHandler(AssignmentStatsQuery)
export class AssignmentStatsHandler implements IQueryHandler<AssignmentStatsQuery> {
  constructor(private readonly stats: AssignmentStatsRepository) {}

  async execute({ account, typeId, request }: AssignmentStatsQuery): Promise<AssignmentStatsView> {
    const { from, until } = localDateBounds(account.timezone, request);
    const type = await this.stats.type(account.id, typeId);
    const weights = type.assignmentWeights;
    const calendars = await this.stats.calendars(account.id, typeId);
    const rows = await this.stats.byCalendar(account.id, typeId, {
      from: from ?? new Date(0),
      until: until ?? new Date('9999-12-31'),
    });
    const byCalendar = new Map(rows.map((r) => [Number(r.calendarId), r]));
    const count = (id: number) => Number(byCalendar.get(id)?.n ?? 0);
    const total = calendars.reduce((sum, c) => sum + count(c.id), 0);
    const totalWeight = calendars.reduce((sum, c) => sum + weightOf(weights, c.id), 0);
    const lines = calendars.map((c): CalendarStats => {
      const last = byCalendar.get(c.id)?.last;
      return {
        calendarID: c.id,
        name: c.name,
        appointments: count(c.id),
        share: total === 0 ? 0 : round(count(c.id) / total),
        weight: weightOf(weights, c.id),
        targetShare: round(weightOf(weights, c.id) / totalWeight),
        lastAssigned: last ? formatInZone(new Date(last), c.timezone) : null,
      };
    });
    return {
      appointmentTypeID: typeId,
      assignment: type.assignment,
      minDate: request.minDate ?? null,
      maxDate: request.maxDate ?? null,
      appointments: total,
      calendars: lines,
    };
  }
}
