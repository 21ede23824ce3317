import { MINUTE } from '../../common/time/durations';
import type { Appointment, Placement, SlotContext, SlotRules } from '../availability';
import type { Label } from '../catalog';
import type { FieldValue } from '../forms';
import type { Sale } from './appointment-extras';
import type { Booking } from './book-appointment.requests';
import type { BookingTime } from './booking-checks';

/** When an appointment of these rules starting at `start` is, and its busy span (with padding). */
export function appointmentTimes(
  start: number,
  rules: SlotRules,
): Pick<Appointment, 'startsAt' | 'endsAt' | 'busyFrom' | 'busyUntil'> {
  const end = start + rules.duration * MINUTE;
  return {
    startsAt: new Date(start),
    endsAt: new Date(end),
    busyFrom: new Date(start - rules.paddingBefore * MINUTE),
    busyUntil: new Date(end + rules.paddingAfter * MINUTE),
  };
}

/** What the checks of a booking settled, before its transaction. */
export interface BookingChecked extends BookingTime {
  ctx: SlotContext;
  start: number;
  /** Whether the request named the calendar; if not, any of the type's may take the booking. */
  calendarNamed: boolean;
  fieldValues: FieldValue[];
  label: Label | null;
  /** The client's own live hold, when booked with its token. */
  hold?: { id: number; calendarId: number };
}

/** What a booking settled before it inserts its appointment: where it goes, what it costs. */
export interface BookingSettled extends BookingChecked, Placement {
  sale: Sale;
}

/** The row a booking inserts, every column given (insertRows writes whole rows). */
export function bookedAppointment(
  { account, input: r, mode }: Booking,
  { ctx, start, calendar, classId, members, timezone, label, sale }: BookingSettled,
): Omit<Appointment, 'id'> {
  const now = new Date();
  return {
    accountId: account.id,
    appointmentTypeId: ctx.type.id,
    calendarId: calendar.id,
    classId,
    ...appointmentTimes(start, ctx.rules),
    canceled: false,
    sequence: 0,
    firstName: r.firstName!.trim(),
    lastName: r.lastName!.trim(),
    email: (r.email ?? '').trim().toLowerCase(),
    phone: (r.phone ?? '').trim(),
    timezone: timezone ?? calendar.timezone,
    notes: mode.admin ? (r.notes ?? null) : null,
    ...sale,
    amountPaidCents: 0,
    addonIds: ctx.addons.map((a) => a.id),
    labelId: label?.id ?? null,
    // Stored as given; whether it matters is the type's rule (notifications read it).
    smsOptIn: r.smsOptIn ?? false,
    noShow: false,
    cancelNote: null,
    canceledAt: null,
    scheduledBy: mode.admin ? account.email : null,
    seriesId: null,
    language: mode.language ?? null,
    memberCalendarIds: members?.map((m) => m.id) ?? null,
    createdAt: now,
    updatedAt: now,
  };
}
