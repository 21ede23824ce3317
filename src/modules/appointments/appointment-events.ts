import { DomainEvent } from '../../common/outbox/domain-event';
import { DomainEventType } from '../../common/outbox/domain-event-types';
import type { Appointment } from '../availability';

/** What every appointment event carries: enough for webhooks and for notifications. */
export type AppointmentEventPayload = {
  appointmentId: number;
  calendarId: number;
  appointmentTypeId: number;
  /** `noEmail=true` on the request: no confirmation e-mail or SMS for this change. */
  noEmail: boolean;
};

export class AppointmentScheduledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = DomainEventType.AppointmentScheduled;
}

export class AppointmentRescheduledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = DomainEventType.AppointmentRescheduled;
}

export class AppointmentCanceledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = DomainEventType.AppointmentCanceled;
}

/** Every change (booked, moved, canceled, edited): what `changed` subscribers receive. */
export class AppointmentChangedEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = DomainEventType.AppointmentChanged;
}

type AppointmentEventClass = new (
  accountId: number,
  payload: AppointmentEventPayload,
) => DomainEvent<AppointmentEventPayload>;

/** What a booking, a move or a cancel records: its own event, and `changed` with the same payload. */
export function eventsOf(
  Event: AppointmentEventClass,
  appointment: Appointment,
  noEmail: boolean,
): DomainEvent<AppointmentEventPayload>[] {
  const payload = eventPayload(appointment, noEmail);
  return [
    new Event(appointment.accountId, payload),
    new AppointmentChangedEvent(appointment.accountId, payload),
  ];
}

export function eventPayload(appointment: Appointment, noEmail: boolean): AppointmentEventPayload {
  return {
    appointmentId: appointment.id,
    calendarId: appointment.calendarId,
    appointmentTypeId: appointment.appointmentTypeId,
    noEmail,
  };
}
