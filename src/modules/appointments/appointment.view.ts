import { formatCents, isPaidInFull } from '../../common/money/money';
import {
  formatApiDatetime,
  formatClockTime,
  formatLongDate,
  momentInZone,
} from '../../common/time/datetimes';
import { HOUR, MINUTE } from '../../common/time/durations';
import { type Appointment, collectiveCalendarIds, collectiveCalendarsOf } from '../availability';
import type { CalendarParts, LabelParts, TypeParts } from './appointment-view.repository';
import { confirmationPage } from './confirmation-token';
import {
  bool,
  classViewSchema,
  field,
  list,
  listOf,
  nullableInt,
  num,
  str,
  strEnum,
  type ViewType,
} from '../../common/openapi/view-schema';

const money = (description: string, example: string) =>
  str(example, `${description} Money with two decimals.`);

const ANSWER_VIEW = classViewSchema('AppointmentAnswerObject', {
  id: num(21, "The field's id (this service has no id of its own for an answer)."),
  fieldID: num(21),
  name: str('Is this your first visit?'),
  value: str('yes'),
});

const FORM_VIEW = classViewSchema('AppointmentFormObject', {
  id: num(3),
  name: str('Intake'),
  values: list(ANSWER_VIEW.ref),
});

const LABEL_VIEW = classViewSchema('AppointmentLabelObject', {
  id: num(2),
  name: str('Confirmed'),
  color: str('green'),
});

const RESOURCE_VIEW = classViewSchema('AppointmentResourceObject', {
  id: num(4),
  name: str('Massage room'),
});

/** The Appointment object: the contract's fields and those `v1-surface.md` adds. */
export const APPOINTMENT_VIEW = classViewSchema(
  'AppointmentObject',
  {
    id: num(54321),
    firstName: str('Ada'),
    lastName: str('Lovelace'),
    phone: str('', '"" when none.'),
    email: str('ada@example.com'),
    date: str('June 3, 2030', "In the appointment's zone (`timezone`)."),
    time: str('10:15am'),
    endTime: str('11:00am'),
    dateCreated: str('May 2, 2030'),
    datetimeCreated: str('2030-05-02T16:04:11-0400'),
    datetime: str('2030-06-03T10:15:00-0400', '`YYYY-MM-DDThh:mm:ss+hhmm`.'),
    price: money("The type's price and its addons'.", '40.00'),
    priceSold: money('What the client pays: after a coupon; "0.00" with a package.', '40.00'),
    paid: strEnum(['yes', 'no'], 'no', '"yes" once `amountPaid` (above 0) covers `priceSold`.'),
    amountPaid: money(
      'The sum of its payments and refunds (GET /appointments/{id}/payments).',
      '15.00',
    ),
    type: str('Haircut', "The appointment type's name."),
    appointmentTypeID: num(1),
    classID: nullableInt(null, 'The class session; null for a service.'),
    addonIDs: listOf(field<number>({ type: 'number' }), []),
    category: str(''),
    duration: str('45', "Minutes, as a string (the reference's quirk)."),
    calendar: str('Alex', "The calendar's name."),
    calendarID: num(7),
    calendarTimezone: str('America/New_York'),
    location: str(''),
    certificate: str('', 'The certificate code used; "" when none.'),
    confirmationPage: str('https://scheduling.example/confirmation/54321-9f2c4e1a7b3d5c6e8f0a'),
    formsText: str('Intake\n======\nIs this your first visit?: yes'),
    forms: list(FORM_VIEW.ref),
    notes: str('', 'Set by admins.'),
    timezone: str('America/New_York', "The client's zone, else the calendar's."),
    labels: field<ViewType<typeof LABEL_VIEW>[]>({
      description: 'At most one.',
      type: 'array',
      items: LABEL_VIEW.ref,
    }),
    resources: field<ViewType<typeof RESOURCE_VIEW>[]>({
      description:
        'The resources (rooms, equipment) its type needs, one unit of each: `GET /resources/{id}`.',
      type: 'array',
      items: RESOURCE_VIEW.ref,
    }),
    canceled: bool(false),
    noShow: bool(false),
    canClientCancel: bool(true),
    canClientReschedule: bool(true),
    scheduledBy: field<string | null>({
      type: ['string', 'null'],
      description: 'The e-mail of the admin who booked it; null when the client did.',
      example: null,
    }),
    seriesID: num(
      12,
      'The series (`POST /appointment-series`) it is an occurrence of; left out when booked alone.',
    ),
    calendarIDs: collectiveCalendarIds('it takes'),
  },
  ['seriesID', 'calendarIDs'],
);

export type AppointmentView = ViewType<typeof APPOINTMENT_VIEW>;
export type AppointmentFormView = ViewType<typeof FORM_VIEW>;

/** What the view shows of the rows the appointment refers to (none: `""`). */
export interface ViewParts {
  type: Pick<TypeParts, 'name' | 'category'> | undefined;
  calendar: Pick<CalendarParts, 'name' | 'timezone' | 'location'> | undefined;
  label: LabelParts | null | undefined;
  forms: AppointmentFormView[];
  /** The live resources of its type. */
  resources: { id: number; name: string }[];
}

/** What the view needs besides the row and its parts. */
export interface ViewSettings {
  publicUrl: string;
  /** Keys the confirmation page's token. */
  secret: string;
  now: number;
  /** The account's `clientChangeMinHours`: a client may cancel or move until then before the start. */
  clientChangeMinHours: number;
}

export function toAppointmentView(a: Appointment, p: ViewParts, c: ViewSettings): AppointmentView {
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
    type: p.type?.name ?? '',
    appointmentTypeID: a.appointmentTypeId,
    classID: a.classId,
    addonIDs: a.addonIds ?? [],
    category: p.type?.category ?? '',
    duration: String(Math.round((a.endsAt.getTime() - a.startsAt.getTime()) / MINUTE)),
    calendar: p.calendar?.name ?? '',
    calendarID: a.calendarId,
    calendarTimezone: p.calendar?.timezone ?? a.timezone,
    location: p.calendar?.location ?? '',
    certificate: a.certificate ?? '',
    confirmationPage: confirmationPage(c.publicUrl, c.secret, a.accountId, a.id),
    formsText: formsText(p.forms),
    forms: p.forms,
    notes: a.notes ?? '',
    timezone: a.timezone,
    // Only what the Appointment object shows of the label.
    labels: p.label ? [{ id: p.label.id, name: p.label.name, color: p.label.color }] : [],
    resources: p.resources,
    canceled: a.canceled,
    noShow: a.noShow,
    canClientCancel: upcoming,
    canClientReschedule: upcoming,
    scheduledBy: a.scheduledBy,
    ...(a.seriesId ? { seriesID: a.seriesId } : {}),
    ...collectiveCalendarsOf(a),
  };
}

/** A view made earlier, as of `now`: what the clock alone changes (canClient…) worked out again. */
export function viewAsOf(
  view: AppointmentView,
  a: Pick<Appointment, 'canceled' | 'startsAt'>,
  clientChangeMinHours: number,
  now: number,
): AppointmentView {
  const upcoming = clientMayChange(a, clientChangeMinHours, now);
  return { ...view, canClientCancel: upcoming, canClientReschedule: upcoming };
}

/** Whether a client may still cancel or move it: not canceled, over `minHours` before its start. */
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
