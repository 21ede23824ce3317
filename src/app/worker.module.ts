import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule } from '../common/health/health.module';
import { WorkerMetricsModule } from '../common/metrics/metrics.module';
import { QueueDashboardModule } from '../common/ops/queue-dashboard';
import { OutboxWorkerModule } from '../common/outbox/outbox-worker.module';
import { CalendarSyncWorkerModule } from '../modules/calendar-sync';
import { HoldsWorkerModule } from '../modules/holds';
import { NotificationsWorkerModule } from '../modules/notifications';
import { WebhooksWorkerModule } from '../modules/webhooks';
import { CoreModule, type CoreOptions, QueueModule } from './core.module';
import { domainEventConsumers } from './domain-event-consumers';

/**
 * The worker process: queue consumers (domain events, webhook deliveries, client notifications), the
 * outbox relay, the webhook sweeper, the expired holds' sweeper and the calendar sync's passes; over HTTP
 * only its health. Each domain event reaches the
 * consumers its type has in domainEventConsumers.
 */
@Module({})
export class WorkerModule {
  static forRoot(options: CoreOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(options),
        QueueModule.forRoot(options.config),
        HealthModule,
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
