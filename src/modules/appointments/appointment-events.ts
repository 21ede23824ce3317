import { DomainEvent } from '../../common/outbox/domain-event';

/** What every appointment event carries: enough for webhooks and for notifications. */
export type AppointmentEventPayload = {
  appointmentId: number;
  calendarId: number;
  appointmentTypeId: number;
  /** `noEmail=true` on the request: no confirmation e-mail or SMS for this change. */
  noEmail: boolean;
};

export class AppointmentScheduledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = 'appointment.scheduled';
}

export class AppointmentRescheduledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = 'appointment.rescheduled';
}

export class AppointmentCanceledEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = 'appointment.canceled';
}

/** Every change (booked, moved, canceled, edited): what `changed` subscribers receive. */
export class AppointmentChangedEvent extends DomainEvent<AppointmentEventPayload> {
  readonly type = 'appointment.changed';
}
