import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { NotificationsController } from './notifications.controller';
import * as notificationQueries from './notification.queries';
import { NotificationRepository, notificationTables } from './notification.repository';

/** API side of notifications: reading what was sent (the worker sends). */
@Module({
  imports: [notificationTables],
  controllers: [NotificationsController],
  providers: [NotificationRepository, ...handlersOf(notificationQueries)],
})
export class NotificationsModule {}
