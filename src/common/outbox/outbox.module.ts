import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueName } from '../queues/queue-names';
import { DomainEventPublisher } from './domain-event-publisher';
import { OutboxDispatcher } from './outbox-dispatcher';
import { OutboxRecord } from './outbox-record.entity';

/**
 * Handing committed domain events to the queue (API, worker): global, so that UnitOfWork publishes
 * through it; the CLI, without a queue, leaves it to the relay.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([OutboxRecord]),
    BullModule.registerQueue({ name: QueueName.DomainEvents }),
  ],
  providers: [OutboxDispatcher, DomainEventPublisher],
  exports: [OutboxDispatcher, DomainEventPublisher],
})
export class OutboxModule {}
