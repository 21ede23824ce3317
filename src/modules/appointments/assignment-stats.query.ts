import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/datetimes';
import type { Account } from '../accounts';
import { localDateBounds } from '../availability';
import { type Assignment, type AssignmentWeights, weightOf } from '../catalog';
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
 * answers), its live calendars, and one pass over the type's appointments grouped by calendar
 * (the count in the range, the latest creation whatever the range).
 */
@QueryHandler(AssignmentStatsQuery)
export class AssignmentStatsHandler implements IQueryHandler<AssignmentStatsQuery> {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async execute({ account, typeId, request }: AssignmentStatsQuery): Promise<AssignmentStatsView> {
    const manager = this.db.manager;
    const { from, until } = localDateBounds(account.timezone, request);
    const [type] = await queryPrepared<
      { accountId: number; assignment: Assignment; weights: string | AssignmentWeights | null }[]
    >(
      manager,
      `SELECT account_id AS accountId, assignment, assignment_weights AS weights
         FROM appointment_types WHERE id = ?`,
      [typeId],
    );
    if (!type) throw new NotFoundError();
    if (Number(type.accountId) !== account.id) throw new ForbiddenError();
    const weights: AssignmentWeights | null =
      typeof type.weights === 'string'
        ? (JSON.parse(type.weights) as AssignmentWeights)
        : type.weights;
    const calendars = await queryPrepared<{ id: number; name: string; timezone: string }[]>(
      manager,
      `SELECT c.id, c.name, c.timezone FROM appointment_type_calendars l
         JOIN calendars c ON c.id = l.calendar_id AND c.deleted_at IS NULL
        WHERE l.appointment_type_id = ? AND c.account_id = ?
        ORDER BY c.id`,
      [typeId, account.id],
    );
    const rows = await queryPrepared<{ calendarId: number; n: string | number; last: Date }[]>(
      manager,
      `SELECT calendar_id AS calendarId,
              SUM(canceled = 0 AND starts_at >= ? AND starts_at < ?) AS n,
              MAX(created_at) AS last
         FROM appointments WHERE account_id = ? AND appointment_type_id = ?
        GROUP BY calendar_id`,
      [from ?? new Date(0), until ?? new Date('9999-12-31'), account.id, typeId],
    );
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
