import { classViewSchema, num, str, type ViewType } from '../../common/openapi/view-schema';
import { formatInZone } from '../../common/time/datetimes';
import { type SlotHold, collectiveCalendarIds, collectiveCalendarsOf } from '../availability';

/** A slot hold as `GET /slot-holds/{id}` shows it. */
export const SLOT_HOLD_VIEW = classViewSchema(
  'SlotHoldView',
  {
    id: num(41),
    appointmentTypeID: num(12),
    calendarID: num(7, 'The calendar the time is held on.'),
    datetime: str(
      '2030-06-03T09:00:00-0400',
      "The start held, in the client's zone when given, else the calendar's.",
    ),
    expiresAt: str(
      '2030-06-03T08:05:00-0400',
      'When the hold ends by itself unless booked, extended or released.',
    ),
    calendarIDs: collectiveCalendarIds('held'),
  },
  ['calendarIDs'],
);

/** The answer of `POST /slot-holds`: the view and the token, given this once. */
export const CREATED_SLOT_HOLD_VIEW = classViewSchema(
  'CreatedSlotHoldView',
  {
    ...SLOT_HOLD_VIEW.properties,
    token: str(
      'm3Lw0dV5y9bJ7hQ2xT1kP8sR4nC6aE0fG5iU3oZ7wYq',
      'Books the held time: `holdToken` of POST /appointments. Shown only here; only its hash ' +
        'is stored.',
    ),
  },
  ['calendarIDs'],
);

export type SlotHoldView = ViewType<typeof SLOT_HOLD_VIEW>;
export type CreatedSlotHoldView = ViewType<typeof CREATED_SLOT_HOLD_VIEW>;

export function toSlotHoldView(hold: SlotHold): SlotHoldView {
  return {
    id: hold.id,
    appointmentTypeID: hold.appointmentTypeId,
    calendarID: hold.calendarId,
    datetime: formatInZone(hold.startsAt, hold.timezone),
    expiresAt: formatInZone(hold.expiresAt, hold.timezone),
    ...collectiveCalendarsOf(hold),
  };
}
