/**
 * Every domain event the service records, by name: the one list. An event class's `type`, an outbox
 * row's `type`, the worker's map of consumers (src/app/domain-event-consumers.ts, which must give
 * each type at least one) and the webhook events of the contract all name their event from here.
 * Adding a type here stops the worker's start until a consumer is given for it.
 */
export const DomainEventType = {
  /** An appointment was booked (appointments/appointment-events.ts). */
  AppointmentScheduled: 'appointment.scheduled',
  /** An appointment was moved to another time. */
  AppointmentRescheduled: 'appointment.rescheduled',
  /** An appointment was canceled. */
  AppointmentCanceled: 'appointment.canceled',
  /** Any change of an appointment (booked, moved, canceled, edited), recorded beside the above. */
  AppointmentChanged: 'appointment.changed',
  /** An order was paid (certificates/order-completed.event.ts). */
  OrderCompleted: 'order.completed',
} as const;

/** The name of a domain event: one of DomainEventType's values. */
export type DomainEventType = (typeof DomainEventType)[keyof typeof DomainEventType];

/** Every DomainEventType, in the order above. */
export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = Object.values(DomainEventType);
