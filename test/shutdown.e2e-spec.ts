import { getQueueToken } from '@nestjs/bull';
import { Controller, Get } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import Bull, { type Queue } from 'bull';
import { DataSource } from 'typeorm';
import { HTTP_APP_OPTIONS, createHttpAdapter } from '../src/app/http-app';
import { closeGracefully } from '../src/app/shutdown';
import { WorkerModule } from '../src/app/worker.module';
import { createRootLogger } from '../src/common/logging/logging.module';
import { DomainEvent, type RecordedEvent } from '../src/common/outbox/domain-event';
import {
  DomainEventConsumer,
  type DomainEventHandler,
} from '../src/common/outbox/domain-event-consumer';
import { DomainEventPublisher } from '../src/common/outbox/domain-event-publisher';
import { Outbox } from '../src/common/outbox/outbox';
import { QueueName } from '../src/common/queues/queue-names';
import { Public } from '../src/common/http/public.decorator';
import { eventually } from './support/eventually';
import { startApi } from './support/test-app';
import { testConfig } from './support/test-environment';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

@Public()
@Controller('probe')
class SlowController {
  @Get('slow')
  async slow(): Promise<{ done: true }> {
    await sleep(600);
    return { done: true };
  }
}

class SlowThingEvent extends DomainEvent<{ n: number }> {
  readonly type = 'slow.thing';
}

@DomainEventConsumer()
class SlowConsumer implements DomainEventHandler {
  started: number | undefined;
  finished: number | undefined;

  async handle(): Promise<void> {
    this.started = Date.now();
    await sleep(800);
    this.finished = Date.now();
  }
}

/** What SIGTERM does (closeGracefully), on the real API and worker modules. */
describe('Graceful stop (e2e)', () => {
  it('API: finishes the request in flight, refuses new connections, closes the pools', async () => {
    const app = await startApi({ controllers: [SlowController] });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${port}`;

    const inFlight = fetch(`${base}/api/v1/probe/slow`);
    await sleep(150); // the request is being served
    const started = Date.now();
    const closed = closeGracefully(app);
    await sleep(50);
    await expect(fetch(`${base}/health/live`)).rejects.toThrow();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    // The client keeps its connection alive: the stop must not wait for it to go away.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(app.get(DataSource).isInitialized).toBe(false);
  });

  it('worker: finishes the job in flight before it stops, and the job is completed', async () => {
    const base = testConfig();
    const config = base.with({ queue: { prefix: `${base.queue.prefix}:shutdown` } });
    const logger = createRootLogger('silent', 'worker');
    const moduleRef = await Test.createTestingModule({
      imports: [WorkerModule.forRoot({ config, logger })],
      providers: [SlowConsumer],
    }).compile();
    const worker = moduleRef.createNestApplication<NestFastifyApplication>(
      createHttpAdapter(logger),
      HTTP_APP_OPTIONS,
    );
    await worker.init();
    await worker.get<Queue>(getQueueToken(QueueName.DomainEvents)).isReady();

    const db = worker.get(DataSource);
    const pending = await db.transaction((tx) =>
      worker.get(Outbox).record(tx, [new SlowThingEvent(1, { n: 1 })]),
    );
    worker.get(DomainEventPublisher).publishAfterCommit(pending);
    const consumer = worker.get(SlowConsumer);
    await eventually(() => consumer.started);

    await closeGracefully(worker);
    const stoppedAt = Date.now();
    expect(consumer.finished).toBeDefined();
    expect(consumer.finished!).toBeLessThanOrEqual(stoppedAt);

    const queue = new Bull<RecordedEvent>(QueueName.DomainEvents, {
      redis: { host: config.redis.host, port: config.redis.port },
      prefix: config.queue.prefix,
    });
    try {
      const job = await queue.getJob(pending.records[0].id);
      expect(await job?.getState()).toBe('completed');
    } finally {
      await queue.close();
    }
  });
});
