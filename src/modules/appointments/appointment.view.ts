import { formatCents, isPaidInFull } from '../../common/money/money';
import {
  formatApiDatetime,
  formatClockTime,
  formatLongDate,
  momentInZone,
} from '../../common/time/datetimes';
import { HOUR, MINUTE } from '../../common/time/durations';
import type { Appointment } from '../availability';
import { confirmationPage } from './confirmation-token';

/** A form's answers as the Appointment object shows them. */
export interface AppointmentFormView {
  id: number;
  name: string;
  values: { id: number; fieldID: number; name: string; value: string }[];
}

/** The Appointment object (the contract's fields, and those `v1-surface.md` adds). */
export interface AppointmentView {
  id: number;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  date: string;
  time: string;
  endTime: string;
  dateCreated: string;
  datetimeCreated: string;
  datetime: string;
  price: string;
  priceSold: string;
  paid: string;
  amountPaid: string;
  type: string;
  appointmentTypeID: number;
  classID: number | null;
  addonIDs: number[];
  category: string;
  duration: string;
  calendar: string;
  calendarID: number;
  calendarTimezone: string;
  location: string;
  certificate: string;
  confirmationPage: string;
  formsText: string;
  forms: AppointmentFormView[];
  notes: string;
  timezone: string;
  labels: { id: number; name: string; color: string }[];
  canceled: boolean;
  noShow: boolean;
  canClientCancel: boolean;
  canClientReschedule: boolean;
  scheduledBy: string | null;
}

/** What the view needs besides the row. */
export interface AppointmentViewContext {
  typeName: string;
  category: string;
  calendarName: string;
  calendarTimezone: string;
  location: string;
  label: { id: number; name: string; color: string } | null;
  forms: AppointmentFormView[];
  publicUrl: string;
  /** Keys the confirmation page's token. */
  secret: string;
  now: number;
  /** The account's `clientChangeMinHours`: a client may cancel or move until then before the start. */
  clientChangeMinHours: number;
}

export function toAppointmentView(a: Appointment, c: AppointmentViewContext): AppointmentView {
  const start = momentInZone(a.startsAt, a.timezone);
  const end = momentInZone(a.endsAt, a.timezone);
  const created = momentInZone(a.createdAt, a.timezone);
  const upcoming = clientMayChange(a, c.clientChangeMinHours, c.now);
  return {
    id: a.id,
    firstName: a.firstName,
    lastName: a.lastName,
    phone: a.phone,
    email: a.email,
    date: formatLongDate(start),
    time: formatClockTime(start),
    endTime: formatClockTime(end),
    dateCreated: formatLongDate(created),
    datetimeCreated: formatApiDatetime(created),
    datetime: formatApiDatetime(start),
    price: formatCents(a.priceCents),
    priceSold: formatCents(a.priceSoldCents),
    paid: isPaidInFull(a.amountPaidCents, a.priceSoldCents) ? 'yes' : 'no',
    amountPaid: formatCents(a.amountPaidCents),
    type: c.typeName,
    appointmentTypeID: a.appointmentTypeId,
    classID: a.classId,
    addonIDs: a.addonIds ?? [],
    category: c.category,
    duration: String(Math.round((a.endsAt.getTime() - a.startsAt.getTime()) / MINUTE)),
    calendar: c.calendarName,
    calendarID: a.calendarId,
    calendarTimezone: c.calendarTimezone,
    location: c.location,
    certificate: a.certificate ?? '',
    confirmationPage: confirmationPage(c.publicUrl, c.secret, a.accountId, a.id),
    formsText: formsText(c.forms),
    forms: c.forms,
    notes: a.notes ?? '',
    timezone: a.timezone,
    labels: c.label ? [c.label] : [],
    canceled: a.canceled,
    noShow: a.noShow,
    canClientCancel: upcoming,
    canClientReschedule: upcoming,
    scheduledBy: a.scheduledBy,
  };
}

/**
 * A view made earlier, as of `now`: the parts of it the clock alone changes (whether the client
 * may still cancel or move it) worked out again; the rest is the row's, as it was.
 */
export function viewAsOf(
  view: AppointmentView,
  a: Pick<Appointment, 'canceled' | 'startsAt'>,
  clientChangeMinHours: number,
  now: number,
): AppointmentView {
  const upcoming = clientMayChange(a, clientChangeMinHours, now);
  return { ...view, canClientCancel: upcoming, canClientReschedule: upcoming };
}

/**
 * Whether a client may still cancel or move the appointment: not canceled, and more than the
 * account's `clientChangeMinHours` before its start (0: until it starts).
 */
export function clientMayChange(
  a: Pick<Appointment, 'canceled' | 'startsAt'>,
  minHours: number,
  now: number,
): boolean {
  return !a.canceled && a.startsAt.getTime() - minHours * HOUR > now;
}

/** The answers as plain text, one form after another (what e-mails and exports show). */
export function formsText(forms: AppointmentFormView[]): string {
  return forms
    .filter((form) => form.values.length > 0)
    .map(
      (form) =>
        `${form.name}\n${'='.repeat(form.name.length)}\n` +
        form.values.map((v) => `${v.name}: ${v.value}`).join('\n'),
    )
    .join('\n\n');
}
