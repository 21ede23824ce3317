import { DomainEvent } from '../../common/outbox/domain-event';
import {
  type AppointmentEventPayload,
  DomainEventType,
} from '../../common/outbox/domain-event-types';
import type { Appointment } from '../availability';

/* One event per change (webhooks deliver `changed` beside the first three: deliveredAs). */

export class AppointmentScheduledEvent extends DomainEvent<'appointment.scheduled'> {
  readonly type = DomainEventType.AppointmentScheduled;
}

export class AppointmentRescheduledEvent extends DomainEvent<'appointment.rescheduled'> {
  readonly type = DomainEventType.AppointmentRescheduled;
}

export class AppointmentCanceledEvent extends DomainEvent<'appointment.canceled'> {
  readonly type = DomainEventType.AppointmentCanceled;
}

/** An edit: the client's details, answers, label, certificate or a payment. */
export class AppointmentChangedEvent extends DomainEvent<'appointment.changed'> {
  readonly type = DomainEventType.AppointmentChanged;
}

export function eventPayload(appointment: Appointment, noEmail: boolean): AppointmentEventPayload {
  return {
    appointmentId: appointment.id,
    calendarId: appointment.calendarId,
    appointmentTypeId: appointment.appointmentTypeId,
    noEmail,
  };
}
