import { Test, type TestingModule } from '@nestjs/testing';
import { testConfig } from '../../test/support/test-environment';
import { createRootLogger } from '../common/logging/logging.module';
import {
  DOMAIN_EVENT_CONSUMERS,
  type DomainEventConsumers,
} from '../common/outbox/domain-event-consumer';
import { DOMAIN_EVENT_TYPES } from '../common/outbox/domain-event-types';
import { DomainEventsProcessor } from '../common/outbox/domain-events.processor';
import { NotificationPlanner } from '../modules/notifications';
import { WebhookFanOut } from '../modules/webhooks';
import { WorkerModule } from './worker.module';

/** The real worker module, compiled (not started: no job is taken): its map of consumers. */
describe('The worker’s domain event consumers (MySQL + Redis)', () => {
  let worker: TestingModule;
  let consumers: DomainEventConsumers;

  beforeAll(async () => {
    worker = await Test.createTestingModule({
      imports: [
        WorkerModule.forRoot({
          config: testConfig(),
          logger: createRootLogger('silent', 'worker'),
        }),
      ],
    }).compile();
    consumers = worker.get(DOMAIN_EVENT_CONSUMERS, { strict: false });
  });

  afterAll(() => worker.close());

  it('gives every declared event type a consumer, so the worker starts', () => {
    const withoutConsumer = DOMAIN_EVENT_TYPES.filter((type) => !(consumers[type]?.length > 0));
    expect(withoutConsumer).toEqual([]);
    expect(worker.get(DomainEventsProcessor, { strict: false })).toBeInstanceOf(
      DomainEventsProcessor,
    );
  });

  it('sends every type to the webhook fan-out, and the appointment events to notifications', () => {
    const classes = Object.fromEntries(
      Object.entries(consumers).map(([type, list]) => [type, list.map((c) => c.constructor)]),
    );
    expect(classes).toEqual({
      'appointment.scheduled': [WebhookFanOut, NotificationPlanner],
      'appointment.rescheduled': [WebhookFanOut, NotificationPlanner],
      'appointment.canceled': [WebhookFanOut, NotificationPlanner],
      'appointment.changed': [WebhookFanOut, NotificationPlanner],
      'order.completed': [WebhookFanOut],
    });
    // The very instances the worker runs.
    const webhooks = worker.get(WebhookFanOut, { strict: false });
    const notifications = worker.get(NotificationPlanner, { strict: false });
    for (const list of Object.values(consumers)) {
      expect(list[0]).toBe(webhooks);
      if (list.length > 1) expect(list[1]).toBe(notifications);
    }
  });
});
