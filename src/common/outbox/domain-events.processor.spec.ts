import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Job } from 'bull';
import { everyTypeTo } from '../../../test/support/domain-events';
import { ROOT_LOGGER, createRootLogger } from '../logging/logging.module';
import type { DomainEventBatch, RecordedEvent } from './domain-event';
import {
  DOMAIN_EVENT_CONSUMERS,
  type DomainEventConsumer,
  type DomainEventConsumers,
} from './domain-event-consumer';
import { DOMAIN_EVENT_TYPES, DomainEventType } from './domain-event-types';
import { DomainEventsProcessor } from './domain-events.processor';
import { OutboxRepository } from './outbox.repository';

/** A consumer that records what it was handed, and can be made to fail or to wait. */
class FakeConsumer implements DomainEventConsumer {
  readonly handled: string[] = [];
  failWith: Error | undefined;
  waitFor: Promise<void> = Promise.resolve();

  async handle(event: RecordedEvent): Promise<void> {
    this.handled.push(event.outboxId);
    await this.waitFor;
    if (this.failWith) throw this.failWith;
  }
}

const event = (outboxId: string, type: DomainEventType): RecordedEvent =>
  ({
    outboxId,
    type,
    accountId: 1,
    payload: {},
    occurredAt: '2030-06-03T12:00:00.000Z',
  }) as RecordedEvent;

const jobOf = (events: RecordedEvent[]) =>
  ({ data: { events }, attemptsMade: 0 }) as unknown as Job<DomainEventBatch>;

describe('DomainEventsProcessor', () => {
  /** The outbox ids marked processed, from the UPDATEs the processor sent. */
  let marked: string[];
  const dataSource = {
    query: (sql: string, params: unknown[]): Promise<unknown[]> => {
      if (sql.startsWith('UPDATE outbox SET processed_at')) marked.push(...(params[1] as string[]));
      return Promise.resolve([]);
    },
  };

  beforeEach(() => (marked = []));

  /** Builds the processor as the worker's start does, with `consumers` as the map of consumers. */
  async function start(consumers: Partial<DomainEventConsumers>): Promise<DomainEventsProcessor> {
    const moduleRef = await Test.createTestingModule({
      providers: [
        DomainEventsProcessor,
        OutboxRepository,
        { provide: DOMAIN_EVENT_CONSUMERS, useValue: consumers },
        { provide: getDataSourceToken(), useValue: dataSource },
        { provide: ROOT_LOGGER, useValue: createRootLogger('silent', 'worker') },
      ],
    }).compile();
    return moduleRef.get(DomainEventsProcessor);
  }

  describe('refuses to start', () => {
    it('when an event type has no consumer, naming the type', async () => {
      const consumer = new FakeConsumer();
      const allButOrders = Object.fromEntries(
        DOMAIN_EVENT_TYPES.filter((t) => t !== DomainEventType.OrderCompleted).map((t) => [
          t,
          [consumer],
        ]),
      );
      await expect(start(allButOrders)).rejects.toThrow(
        new Error(
          'No consumer for domain event type "order.completed": the worker cannot start. ' +
            'Give each type its consumers in src/app/domain-event-consumers.ts.',
        ),
      );
    });

    it('when a type’s list of consumers is empty, naming every such type', async () => {
      const consumers = {
        ...everyTypeTo(new FakeConsumer()),
        [DomainEventType.AppointmentRescheduled]: [],
        [DomainEventType.AppointmentCanceled]: [],
      };
      await expect(start(consumers)).rejects.toThrow(
        'No consumer for domain event type "appointment.rescheduled", "appointment.canceled": ' +
          'the worker cannot start.',
      );
    });

    it('when no type has any', async () => {
      await expect(start({})).rejects.toThrow(
        `No consumer for domain event type ${DOMAIN_EVENT_TYPES.map((t) => `"${t}"`).join(', ')}:`,
      );
    });
  });

  it('starts when every type has a consumer', async () => {
    await expect(start(everyTypeTo(new FakeConsumer()))).resolves.toBeInstanceOf(
      DomainEventsProcessor,
    );
  });

  it('hands each event to the consumers of its type only, then marks it processed', async () => {
    const [webhooks, notifications] = [new FakeConsumer(), new FakeConsumer()];
    const processor = await start({
      ...everyTypeTo(webhooks, notifications),
      [DomainEventType.OrderCompleted]: [webhooks],
    });

    await processor.handle(
      jobOf([
        event('1', DomainEventType.AppointmentScheduled),
        event('2', DomainEventType.OrderCompleted),
        event('3', DomainEventType.AppointmentChanged),
      ]),
    );

    expect(webhooks.handled).toEqual(['1', '2', '3']);
    expect(notifications.handled).toEqual(['1', '3']);
    expect(marked.sort()).toEqual(['1', '2', '3']);
  });

  it('runs the consumers of an event side by side, and fails the job only once all have ended', async () => {
    const [slow, failing] = [new FakeConsumer(), new FakeConsumer()];
    let slowEnded = false;
    // The slow one waits for the failing one to have started: run one after the other, it never ends.
    slow.waitFor = new Promise<void>((resolve) => {
      const poll = () => (failing.handled.length > 0 ? resolve() : setImmediate(poll));
      poll();
    }).then(() => {
      slowEnded = true;
    });
    failing.failWith = new Error('fan-out failed');
    const processor = await start(everyTypeTo(slow, failing));

    await expect(
      processor.handle(jobOf([event('7', DomainEventType.AppointmentCanceled)])),
    ).rejects.toThrow('fan-out failed');
    expect(slowEnded).toBe(true);
    expect(marked).toEqual([]);
  });

  it('marks processed, without any consumer, an event of a type this worker does not know', async () => {
    const consumer = new FakeConsumer();
    const processor = await start(everyTypeTo(consumer));

    // Recorded by another version of the service.
    await processor.handle(jobOf([event('9', 'appointment.deleted' as DomainEventType)]));

    expect(consumer.handled).toEqual([]);
    expect(marked).toEqual(['9']);
  });
});
