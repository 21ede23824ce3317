import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import type { Queue } from 'bull';
import { QueueName } from '../queues/queue-names';

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
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS);
        }),
      ]);
      return indicator.up();
    } catch (e) {
      return indicator.down({ message: e instanceof Error ? e.message : String(e) });
    } finally {
      clearTimeout(timer);
    }
  }
}
