import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DomainEventsProcessor } from './domain-events.processor';
import { OutboxRelay } from './outbox-relay';
import { OutboxModule } from './outbox.module';

/** Worker side of the outbox: the relay and the domain-events consumer. */
@Module({
  imports: [OutboxModule, DiscoveryModule],
  providers: [OutboxRelay, DomainEventsProcessor],
})
export class OutboxWorkerModule {}
