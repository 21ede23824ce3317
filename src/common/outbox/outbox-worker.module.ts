import {
  type DynamicModule,
  type FactoryProvider,
  Module,
  type ModuleMetadata,
} from '@nestjs/common';
import { DOMAIN_EVENT_CONSUMERS, type DomainEventConsumers } from './domain-event-consumer';
import { DomainEventsProcessor } from './domain-events.processor';
import { OutboxRelay } from './outbox-relay';
import { OutboxModule } from './outbox.module';

/** How the worker module gives the consumers of each event type: a Nest factory and its modules. */
export interface DomainEventConsumersFactory {
  /** The modules that provide (and export) the consumers. */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** The consumers, in the order of useFactory's parameters. */
  inject: NonNullable<FactoryProvider['inject']>;
  /** The map from each event type to its consumers, given the consumers `inject` names. */
  useFactory: (...consumers: never[]) => DomainEventConsumers;
}

/** Worker side of the outbox: the relay, and the processor with the worker's consumers. */
@Module({})
export class OutboxWorkerModule {
  static forConsumers({ imports, inject, useFactory }: DomainEventConsumersFactory): DynamicModule {
    return {
      module: OutboxWorkerModule,
      imports: [OutboxModule, ...imports],
      providers: [
        OutboxRelay,
        DomainEventsProcessor,
        { provide: DOMAIN_EVENT_CONSUMERS, inject, useFactory },
      ],
    };
  }
}
