import { type DynamicModule, Module } from '@nestjs/common';
import { WorkerMetricsModule } from '../common/metrics/metrics.module';
import { QueueDashboardModule } from '../common/ops/queue-dashboard';
import { OutboxWorkerModule } from '../common/outbox/outbox-worker.module';
import { CalendarSyncWorkerModule } from '../modules/calendar-sync';
import { HoldsWorkerModule } from '../modules/holds';
import { NotificationsWorkerModule } from '../modules/notifications';
import { WebhooksWorkerModule } from '../modules/webhooks';
import { type CoreOptions, servingCore } from './core.module';
import { domainEventConsumers } from './domain-event-consumers';

/**
 * The worker process: queue consumers (domain events, webhook deliveries, client notifications),
 * the outbox relay, the webhook and expired holds' sweepers and the calendar sync's passes; over
 * HTTP only its health. A domain event reaches its type's consumers in domainEventConsumers.
 */
@Module({})
export class WorkerModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...servingCore(options),
        WorkerMetricsModule,
        QueueDashboardModule,
        OutboxWorkerModule.forConsumers(domainEventConsumers),
        WebhooksWorkerModule,
        NotificationsWorkerModule,
        CalendarSyncWorkerModule,
        HoldsWorkerModule,
      ],
    };
  }
}
