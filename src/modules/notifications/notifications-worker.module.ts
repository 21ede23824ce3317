import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Appointment } from '../availability';
import { MailSender } from './mail-sender';
import { Notification } from './notification.entity';
import { NotificationPlanner } from './notification-planner';
import { NotificationQueue, notificationsQueueModule } from './notification-queue';
import { NotificationRecords } from './notification-records';
import { NotificationsProcessor } from './notifications.processor';
import { smsSenderProvider } from './sms-sender';

/**
 * Worker side of notifications: the planner (a domain-event consumer, exported for the worker's map
 * of consumers), the notifications queue and its processor, and the channels (SMTP, the SMS
 * provider). Only the worker imports it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Appointment, Notification]), notificationsQueueModule],
  providers: [
    NotificationPlanner,
    NotificationQueue,
    NotificationRecords,
    NotificationsProcessor,
    MailSender,
    smsSenderProvider,
  ],
  exports: [NotificationPlanner],
})
export class NotificationsWorkerModule {}
