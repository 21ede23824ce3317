import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { OutboxMetrics } from './outbox-metrics';
import { QueueMetrics } from './queue-metrics';

/**
 * The API's metrics: the registry (global: booking counts come from the appointments module) and
 * the listener on METRICS_PORT that main.ts starts. HTTP latency is observed by a Fastify hook
 * (registerHttpMetrics, in configureApi).
 */
@Global()
@Module({
  providers: [Metrics, MetricsServer],
  exports: [Metrics, MetricsServer],
})
export class ApiMetricsModule {}

/**
 * The worker's metrics: the registry (webhook delivery outcomes come from the webhooks module),
 * queue depth and job durations, outbox lag and the relay's re-queues (OutboxMetrics, which the
 * relay counts them with), served at `/metrics` on WORKER_PORT.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, QueueMetrics, OutboxMetrics],
  exports: [Metrics, OutboxMetrics],
})
export class WorkerMetricsModule {}
