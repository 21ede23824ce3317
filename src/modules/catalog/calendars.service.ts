import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { InvalidTimezoneError, assertTimezone } from '../accounts';
import { Calendar } from './calendar.entity';
import type { CreateCalendarRequest, UpdateCalendarRequest } from './calendar.requests';
import {
  type CalendarDetailsView,
  type CalendarView,
  toCalendarDetailsView,
  toCalendarView,
} from './calendar.view';
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
export const DEFAULT_WEEKLY_HOURS: Readonly<WeeklyHours> = Object.freeze({
  monday: [{ start: '09:00', end: '17:00' }],
  tuesday: [{ start: '09:00', end: '17:00' }],
  wednesday: [{ start: '09:00', end: '17:00' }],
  thursday: [{ start: '09:00', end: '17:00' }],
  friday: [{ start: '09:00', end: '17:00' }],
});

/** The checked parts of a request that a constraint cannot report (see CalendarAttributes). */
interface CheckedRules {
  timezone?: string;
  hours?: WeeklyHours;
  overrides?: DateOverrides;
}

@Injectable()
export class CalendarsService {
  constructor(@InjectRepository(Calendar) private readonly calendars: Repository<Calendar>) {}

  async list(accountId: number): Promise<CalendarView[]> {
    const rows = await listOwned(this.calendars, accountId);
    return rows.map(toCalendarView);
  }

  async get(accountId: number, id: number): Promise<CalendarDetailsView> {
    return toCalendarDetailsView(await findOwned(this.calendars, accountId, id));
  }

  /** `accountTimezone` is the zone of a calendar created without one. */
  async create(
    accountId: number,
    accountTimezone: string,
    request: CreateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    const rules = checkRules(request);
    const now = new Date();
    const calendar = await this.calendars.save(
      this.calendars.create({
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
      }),
    );
    return toCalendarDetailsView(calendar);
  }

  async update(
    accountId: number,
    id: number,
    request: UpdateCalendarRequest,
  ): Promise<CalendarDetailsView> {
    // Every 400 of the body before the lookup, as the validation pipe's come before it.
    const rules = checkRules(request);
    const calendar = await findOwned(this.calendars, accountId, id);
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
    return toCalendarDetailsView(await this.calendars.save(calendar));
  }

  /** Soft delete: appointments booked on the calendar keep it; nothing new can be booked on it. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.calendars, accountId, id);
  }
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
