import { Module } from '@nestjs/common';
import { MailSender } from './mail-sender';
import { NotificationPlanner } from './notification-planner';
import { NotificationQueue, notificationsQueueModule } from './notification-queue';
import { NotificationRepository, notificationTables } from './notification.repository';
import { NotificationsProcessor } from './notifications.processor';
import { smsSenderProvider } from './sms-sender';

/** Worker side of notifications: the planner (a domain-event consumer), the queue, the senders. */
@Module({
  imports: [notificationTables, notificationsQueueModule],
  providers: [
    NotificationPlanner,
    NotificationQueue,
    NotificationRepository,
    NotificationsProcessor,
    MailSender,
    smsSenderProvider,
  ],
  exports: [NotificationPlanner],
})
export class NotificationsWorkerModule {}
