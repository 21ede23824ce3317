import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { InvalidTimezoneError, assertTimezone } from '../accounts';
import { Calendar } from './calendar.entity';
import { CalendarRepository } from './calendar.repository';
import type { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import { type CalendarDetailsView, toCalendarDetailsView } from './calendar.view';
import {
  type DateOverrides,
  type WeeklyHours,
  parseDateOverrides,
  parseWeeklyHours,
} from './working-hours';

/**
 * The hours of a calendar created without any: a plain office week (Monday to Friday, 09:00 to
 * 17:00), so that a new calendar can be booked at once instead of silently offering no time at all;
 * the owner narrows or widens it later.
 */
const DEFAULT_WEEKLY_HOURS: Readonly<WeeklyHours> = Object.freeze({
  monday: [{ start: '09:00', end: '17:00' }],
  tuesday: [{ start: '09:00', end: '17:00' }],
  wednesday: [{ start: '09:00', end: '17:00' }],
  thursday: [{ start: '09:00', end: '17:00' }],
  friday: [{ start: '09:00', end: '17:00' }],
});

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
export class CreateCalendarHandler implements ICommandHandler<CreateCalendarCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly calendars: CalendarRepository,
  ) {}

  execute({
    accountId,
    accountTimezone,
    request,
  }: CreateCalendarCommand): Promise<CalendarDetailsView> {
    const rules = checkRules(request);
    return this.unitOfWork.run(accountId, async (tx) => {
      const now = new Date();
      const calendar = Object.assign(new Calendar(), {
        accountId,
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
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      return toCalendarDetailsView(await this.calendars.save(calendar, tx));
    });
  }
}

export class UpdateCalendarCommand extends Command<CalendarDetailsView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateCalendarRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateCalendarCommand)
export class UpdateCalendarHandler implements ICommandHandler<UpdateCalendarCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly calendars: CalendarRepository,
  ) {}

  execute({ accountId, id, request }: UpdateCalendarCommand): Promise<CalendarDetailsView> {
    // Every 400 of the body before the lookup, as the validation pipe's come before it.
    const rules = checkRules(request);
    return this.unitOfWork.run(accountId, async (tx) => {
      const calendar = await this.calendars.find(accountId, id, { tx });
      if (request.name !== undefined) calendar.name = request.name;
      if (request.email !== undefined) calendar.email = request.email;
      if (request.replyTo !== undefined) calendar.replyTo = request.replyTo;
      if (request.description !== undefined) calendar.description = request.description;
      if (request.location !== undefined) calendar.location = request.location;
      if (request.image !== undefined) calendar.image = request.image;
      if (request.thumbnail !== undefined) calendar.thumbnail = request.thumbnail;
      if (rules.timezone !== undefined) calendar.timezone = rules.timezone;
      if (rules.hours !== undefined) calendar.hours = rules.hours;
      if (rules.overrides !== undefined) calendar.overrides = rules.overrides;
      if (request.maxPerDay !== undefined) calendar.maxPerDay = request.maxPerDay;
      if (request.maxPerWeek !== undefined) calendar.maxPerWeek = request.maxPerWeek;
      calendar.updatedAt = new Date();
      return toCalendarDetailsView(await this.calendars.save(calendar, tx));
    });
  }
}

/** Soft delete: appointments booked on the calendar keep it; nothing new can be booked on it. */
export class DeleteCalendarCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteCalendarCommand)
export class DeleteCalendarHandler implements ICommandHandler<DeleteCalendarCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly calendars: CalendarRepository,
  ) {}

  execute({ accountId, id }: DeleteCalendarCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.calendars.softDelete(accountId, id, tx));
  }
}

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
