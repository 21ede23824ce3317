import { DomainEvent } from '../../common/outbox/domain-event';
import { DomainEventType } from '../../common/outbox/domain-event-types';

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
