import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Queue } from 'bull';
import { QueueName } from '../queues/queue-names';
import { withTimeout } from '../time/with-timeout';

const PING_TIMEOUT_MS = 1000;

/** Redis is up when the queue's connection answers PING in time. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    @InjectQueue(QueueName.DomainEvents) private readonly queue: Queue,
    private readonly health: HealthIndicatorService,
  ) {}

  async isHealthy(key = 'redis') {
    const indicator = this.health.check(key);
    const client = this.queue.client;
    if (client.status !== 'ready')
      return indicator.down({ message: `connection ${client.status}` });
    try {
      await withTimeout(client.ping(), PING_TIMEOUT_MS, 'ping timed out');
      return indicator.up();
    } catch (e) {
      return indicator.down({ message: e instanceof Error ? e.message : String(e) });
    }
  }
}
