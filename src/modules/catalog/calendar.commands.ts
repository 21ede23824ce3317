import { Command, CommandHandler } from '@nestjs/cqrs';
import {
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { InvalidTimezoneError, assertTimezone } from '../accounts';
import { Calendar } from './calendar.entity';
import { CalendarRepository } from './calendar.repository';
import type { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import { type CalendarDetailsView, toCalendarDetailsView } from './calendar.view';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import {
  DAY_NAMES,
  type DateOverrides,
  type WeeklyHours,
  parseDateOverrides,
  parseWeeklyHours,
} from './working-hours';

/**
 * The hours of a calendar created without any: Monday to Friday, 09:00 to 17:00, so that a new
 * calendar can be booked at once instead of silently offering no time at all.
 */
const DEFAULT_WEEKLY_HOURS: Readonly<WeeklyHours> = Object.freeze(
  Object.fromEntries(DAY_NAMES.slice(0, 5).map((day) => [day, [{ start: '09:00', end: '17:00' }]])),
);

/** `accountTimezone` is the zone of a calendar created without one. */
export class CreateCalendarCommand extends Command<CalendarDetailsView> {
  constructor(
    readonly accountId: number,
    readonly accountTimezone: string,
    readonly request: CreateCalendarRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateCalendarCommand)
export class CreateCalendarHandler extends WriteHandler(CalendarRepository) {
  execute({
    accountId,
    accountTimezone,
    request,
  }: CreateCalendarCommand): Promise<CalendarDetailsView> {
    const rules = checkRules(request);
    return this.unitOfWork.run(accountId, async (tx) => {
      const calendar = newCatalogRow(Calendar, accountId, {
        name: request.name,
        email: request.email ?? '',
        replyTo: request.replyTo ?? '',
        description: request.description ?? '',
        location: request.location ?? '',
        timezone: rules.timezone ?? accountTimezone,
        image: request.image ?? '',
        thumbnail: request.thumbnail ?? '',
        hours: rules.hours ?? structuredClone(DEFAULT_WEEKLY_HOURS),
        overrides: rules.overrides ?? {},
        maxPerDay: request.maxPerDay ?? null,
        maxPerWeek: request.maxPerWeek ?? null,
      });
      return toCalendarDetailsView(await this.rows.save(calendar, tx));
    });
  }
}

export class UpdateCalendarCommand extends AccountItemCommand<
  UpdateCalendarRequest,
  CalendarDetailsView
> {}

@CommandHandler(UpdateCalendarCommand)
export class UpdateCalendarHandler extends WriteHandler(CalendarRepository) {
  execute({ accountId, id, request }: UpdateCalendarCommand): Promise<CalendarDetailsView> {
    // Every 400 of the body before the lookup, as the validation pipe's come before it.
    const rules = checkRules(request);
    return this.unitOfWork.run(accountId, async (tx) => {
      const calendar = await this.rows.find(accountId, id, { tx });
      copyGiven(calendar, request, ['name', 'email', 'replyTo', 'description', 'location']);
      copyGiven(calendar, request, ['image', 'thumbnail', 'maxPerDay', 'maxPerWeek']);
      copyGiven(calendar, rules, ['timezone', 'hours', 'overrides']);
      calendar.updatedAt = new Date();
      return toCalendarDetailsView(await this.rows.save(calendar, tx));
    });
  }
}

/** Soft delete: appointments booked on the calendar keep it; nothing new can be booked on it. */
export class DeleteCalendarCommand extends AccountItemAction {}

@CommandHandler(DeleteCalendarCommand)
export class DeleteCalendarHandler extends SoftDeleteHandler(CalendarRepository) {}

/** The checked parts of a request that a constraint cannot report (see CalendarAttributes). */
interface CheckedRules {
  timezone?: string;
  hours?: WeeklyHours;
  overrides?: DateOverrides;
}

function checkRules(request: CreateCalendarRequest | UpdateCalendarRequest): CheckedRules {
  return {
    timezone: request.timezone === undefined ? undefined : checkTimezone(request.timezone),
    hours: request.hours === undefined ? undefined : parseWeeklyHours(request.hours),
    overrides: request.overrides === undefined ? undefined : parseDateOverrides(request.overrides),
  };
}

/** The contract's `invalid_timezone`, for a value of any JSON type (`42` is no zone either). */
function checkTimezone(value: unknown): string {
  if (typeof value === 'string') return assertTimezone(value);
  throw new InvalidTimezoneError(JSON.stringify(value));
}
