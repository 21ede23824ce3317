/**
 * Every domain event the service records, by name: the one list. An event class's `type`, an outbox
 * row's `type`, the worker's map of consumers (src/app/domain-event-consumers.ts, which must give
 * each type at least one) and the webhook events of the contract all name their event from here.
 * Adding a type here stops the worker's start until a consumer is given for it, and its payload
 * in DomainEventPayloads below.
 *
 * A change records one event. What the outside hears of it is derived where deliveries are planned:
 * webhooks deliver `changed` beside `scheduled`, `rescheduled` and `canceled` (deliveredAs).
 */
export const DomainEventType = {
  /** An appointment was booked (appointments/appointment-events.ts). */
  AppointmentScheduled: 'appointment.scheduled',
  /** An appointment was moved to another time. */
  AppointmentRescheduled: 'appointment.rescheduled',
  /** An appointment was canceled. */
  AppointmentCanceled: 'appointment.canceled',
  /** An appointment was edited (its details, answers, label, a payment): no other event says so. */
  AppointmentChanged: 'appointment.changed',
  /** An order was paid (certificates/order-completed.event.ts). */
  OrderCompleted: 'order.completed',
} as const;

/** The name of a domain event: one of DomainEventType's values. */
export type DomainEventType = (typeof DomainEventType)[keyof typeof DomainEventType];

/** Every DomainEventType, in the order above. */
export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = Object.values(DomainEventType);

/** The types of the appointment's events (all but an order's). */
export type AppointmentEventType = Exclude<DomainEventType, typeof DomainEventType.OrderCompleted>;

/** What every appointment event carries: enough for webhooks and for notifications. */
export type AppointmentEventPayload = {
  appointmentId: number;
  calendarId: number;
  appointmentTypeId: number;
  /** `noEmail=true` on the request: no confirmation e-mail or SMS for this change. */
  noEmail: boolean;
};

export type OrderCompletedPayload = {
  orderId: number;
  productId: number;
  /** The certificates the order issued. */
  certificateIds: number[];
};

/**
 * The payload of each event type: what its producers write and its consumers read, checked by the
 * compiler on both sides (the queue carries it as JSON).
 */
export interface DomainEventPayloads {
  [DomainEventType.AppointmentScheduled]: AppointmentEventPayload;
  [DomainEventType.AppointmentRescheduled]: AppointmentEventPayload;
  [DomainEventType.AppointmentCanceled]: AppointmentEventPayload;
  [DomainEventType.AppointmentChanged]: AppointmentEventPayload;
  [DomainEventType.OrderCompleted]: OrderCompletedPayload;
}
