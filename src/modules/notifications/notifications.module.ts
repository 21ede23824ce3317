import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller';
import { ListAppointmentNotificationsHandler } from './notification.queries';
import { NotificationRepository, notificationTables } from './notification.repository';

/** API side of notifications: reading what was sent (the worker sends). */
@Module({
  imports: [notificationTables],
  controllers: [NotificationsController],
  providers: [ListAppointmentNotificationsHandler, NotificationRepository],
})
export class NotificationsModule {}
