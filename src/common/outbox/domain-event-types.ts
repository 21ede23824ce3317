/**
 * Every domain event the service records, by name: the one list. A type added here needs its
 * payload in DomainEventPayloads, and stops the worker's start until it has a consumer
 * (src/app/domain-event-consumers.ts). What the outside hears of a change is derived (deliveredAs).
 */
export const DomainEventType = {
  /** An appointment was booked (appointments/appointment-events.ts). */
  AppointmentScheduled: 'appointment.scheduled',
  AppointmentRescheduled: 'appointment.rescheduled',
  AppointmentCanceled: 'appointment.canceled',
  /** An appointment was edited (its details, answers, label, a payment): no other event says so. */
  AppointmentChanged: 'appointment.changed',
  /** An order was paid (certificates/order-completed.event.ts). */
  OrderCompleted: 'order.completed',
} as const;

export type DomainEventType = (typeof DomainEventType)[keyof typeof DomainEventType];

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
  certificateIds: number[];
};

/** The payload of each event type, checked by the compiler for producers and consumers alike. */
export type DomainEventPayloads = Record<AppointmentEventType, AppointmentEventPayload> & {
  [DomainEventType.OrderCompleted]: OrderCompletedPayload;
};
