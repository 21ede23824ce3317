import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { OutboxMetrics } from './outbox-metrics';
import { QueueMetrics } from './queue-metrics';

/** The API's metrics: the registry (global) and the listener on METRICS_PORT. */
@Global()
@Module({
  providers: [Metrics, MetricsServer],
  exports: [Metrics, MetricsServer],
})
export class ApiMetricsModule {}

/** The worker's metrics: the registry, queues, the outbox, at `/metrics` on WORKER_PORT. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, QueueMetrics, OutboxMetrics],
  exports: [Metrics, OutboxMetrics],
})
export class WorkerMetricsModule {}
