import { type EntityManager, In, IsNull } from 'typeorm';
import { findReferenced } from '../../common/database/tenant-rows';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import type { Account } from '../accounts/account.entity';
import { Addon } from '../catalog/addon.entity';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
} from '../catalog/appointment-type-links.entity';
import { AppointmentType } from '../catalog/appointment-type.entity';
import { Calendar } from '../catalog/calendar.entity';
import { invalidAddon, invalidAppointmentType, invalidCalendar } from '../catalog/catalog.errors';
import type { SlotRules } from './slot-engine';

/** What a question about availability (or a booking) is about, checked against the account. */
export interface SlotRequest {
  appointmentTypeID: number;
  calendarID?: number;
  addonIDs?: number[];
}

/** The type, the calendars that may take it, and the rules the engine applies. */
export interface SlotContext {
  type: AppointmentType;
  /** The calendar asked for, or every live calendar of the type (ascending id). */
  calendars: Calendar[];
  addons: Addon[];
  rules: SlotRules;
}

/**
 * Resolves a request's type, calendar and addons: 400 with the contract's codes for what does not
 * exist (or was deleted), 403 for another account's, 400 for a calendar or addon the type is not
 * offered with. The type's rules win over the account's.
 */
export async function resolveSlotContext(
  manager: EntityManager,
  account: Account,
  request: SlotRequest,
): Promise<SlotContext> {
  const [type] = await findReferenced(
    manager,
    AppointmentType,
    account.id,
    [request.appointmentTypeID],
    invalidAppointmentType,
  );
  const calendars = await offeredCalendars(manager, account, type, request.calendarID);
  const addons = await offeredAddons(manager, account, type, request.addonIDs ?? []);
  const duration = type.duration + addons.reduce((sum, addon) => sum + addon.duration, 0);
  return {
    type,
    calendars,
    addons,
    rules: {
      duration,
      paddingBefore: type.paddingBefore,
      paddingAfter: type.paddingAfter,
      slotInterval: type.slotInterval ?? type.duration,
      minHoursInAdvance: type.minHoursInAdvance ?? account.minHoursInAdvance,
      maxDaysInAdvance: type.maxDaysInAdvance ?? account.maxDaysInAdvance,
    },
  };
}

async function offeredCalendars(
  manager: EntityManager,
  account: Account,
  type: AppointmentType,
  calendarId: number | undefined,
): Promise<Calendar[]> {
  if (calendarId !== undefined) {
    const [calendar] = await findReferenced(
      manager,
      Calendar,
      account.id,
      [calendarId],
      invalidCalendar,
    );
    const offered = await manager.existsBy(AppointmentTypeCalendar, {
      appointmentTypeId: type.id,
      calendarId,
    });
    if (!offered)
      throw new InvalidAttributeError(
        'invalid_calendar',
        `The calendar "${calendarId}" does not offer appointment type "${type.id}".`,
      );
    return [calendar];
  }
  const links = await manager.findBy(AppointmentTypeCalendar, { appointmentTypeId: type.id });
  if (links.length === 0) return [];
  return manager.find(Calendar, {
    where: { id: In(links.map((l) => l.calendarId)), accountId: account.id, deletedAt: IsNull() },
    order: { id: 'ASC' },
  });
}

async function offeredAddons(
  manager: EntityManager,
  account: Account,
  type: AppointmentType,
  addonIds: number[],
): Promise<Addon[]> {
  const addons = await findReferenced(manager, Addon, account.id, addonIds, invalidAddon);
  if (addons.length === 0) return [];
  const links = await manager.findBy(AppointmentTypeAddon, {
    appointmentTypeId: type.id,
    addonId: In(addons.map((a) => a.id)),
  });
  const linked = new Set(links.map((l) => l.addonId));
  const stray = addons.find((addon) => !linked.has(addon.id));
  if (stray)
    throw new InvalidAttributeError(
      'invalid_addon',
      `The addon "${stray.id}" is not offered with appointment type "${type.id}".`,
    );
  return addons;
}
