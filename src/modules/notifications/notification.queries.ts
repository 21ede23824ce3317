import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { NotificationRepository } from './notification.repository';
import { type NotificationView, toNotificationView } from './notification.view';

/**
 * The messages of an appointment of the account, oldest first: what the client was told, when,
 * and what was not sent and why.
 */
export class ListAppointmentNotificationsQuery extends Query<NotificationView[]> {
  constructor(
    readonly accountId: number,
    readonly appointmentId: number,
  ) {
    super();
  }
}

@QueryHandler(ListAppointmentNotificationsQuery)
export class ListAppointmentNotificationsHandler implements IQueryHandler<ListAppointmentNotificationsQuery> {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute({
    accountId,
    appointmentId,
  }: ListAppointmentNotificationsQuery): Promise<NotificationView[]> {
    const rows = await this.notifications.ofAppointment(accountId, appointmentId);
    return rows.map(toNotificationView);
  }
}
