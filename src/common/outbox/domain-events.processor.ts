import { Process, Processor } from '@nestjs/bull';
import { Inject, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bull';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../logging/logging.module';
import { QueueName } from '../queues/queue-names';
import type { RecordedEvent } from './domain-event';
import { DOMAIN_EVENT_CONSUMER, type DomainEventHandler } from './domain-event-consumer';

/** Worker: hands each domain event from the queue to every registered consumer, in turn. */
@Processor(QueueName.DomainEvents)
export class DomainEventsProcessor implements OnModuleInit {
  private consumers: DomainEventHandler[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.consumers = this.discovery
      .getProviders()
      .filter((w) => w.metatype && Reflect.getMetadata(DOMAIN_EVENT_CONSUMER, w.metatype) === true)
      .map((w) => w.instance as DomainEventHandler);
    this.logger.info(
      { consumers: this.consumers.map((c) => c.constructor.name) },
      'domain event consumers registered',
    );
  }

  @Process({ name: '*', concurrency: 16 })
  async handle(job: Job<RecordedEvent>): Promise<void> {
    for (const consumer of this.consumers) {
      await consumer.handle(job.data);
    }
  }
}
