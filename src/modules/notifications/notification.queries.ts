import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import { NotificationRepository } from './notification.repository';
import { type NotificationView, toNotificationView } from './notification.view';

/** The messages of the account's appointment `id`, oldest first: what the client was told. */
export class ListAppointmentNotificationsQuery extends AccountItemQuery<NotificationView[]> {}

@QueryHandler(ListAppointmentNotificationsQuery)
export class ListAppointmentNotificationsHandler implements IQueryHandler<ListAppointmentNotificationsQuery> {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute({ accountId, id }: ListAppointmentNotificationsQuery): Promise<NotificationView[]> {
    const rows = await this.notifications.ofAppointment(accountId, id);
    return rows.map(toNotificationView);
  }
}
