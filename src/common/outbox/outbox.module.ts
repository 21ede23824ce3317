import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueueName } from '../queues/queue-names';
import { DomainEventPublisher } from './domain-event-publisher';
import { Outbox } from './outbox';
import { OutboxDispatcher } from './outbox-dispatcher';
import { OutboxRecord } from './outbox-record.entity';

/** Writing and publishing domain events; imported by every module that records events. */
@Module({
  imports: [
    TypeOrmModule.forFeature([OutboxRecord]),
    BullModule.registerQueue({ name: QueueName.DomainEvents }),
  ],
  providers: [Outbox, OutboxDispatcher, DomainEventPublisher],
  exports: [Outbox, OutboxDispatcher, DomainEventPublisher],
})
export class OutboxModule {}
