import type { Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { ApiModule } from '../../src/app/api.module';
import { WorkerModule } from '../../src/app/worker.module';
import { HTTP_APP_OPTIONS, configureApi, createHttpAdapter } from '../../src/app/http-app';
import type { AppConfig } from '../../src/config/app-config';
import type { RouteCatalog } from '../../src/common/http/route-catalog';
import { createRootLogger } from '../../src/common/logging/logging.module';
import {
  DOMAIN_EVENT_CONSUMERS,
  type DomainEventConsumers,
} from '../../src/common/outbox/domain-event-consumer';
import { CreateAccountCommand, type NewAccount } from '../../src/modules/accounts/account.commands';
import { openApiDocumentOf } from '../../src/app/openapi-document';
import { type OpenApiDocument, checkResponsesAgainst } from './openapi-contract';
import { testConfig } from './test-environment';

export interface ApiOptions {
  config?: AppConfig;
  /** Extra controllers mounted beside the real ones (probes of platform behaviour). */
  controllers?: Type[];
  /** Where the JSON logs go (to assert on them); silent when not given. */
  logStream?: Writable;
}

/** The API as main.ts builds it, on the run's test database and Redis prefix; call close() after. */
export async function startApi(options: ApiOptions = {}): Promise<NestFastifyApplication> {
  const config = options.config ?? testConfig();
  const logger = createRootLogger(
    options.logStream ? 'info' : config.log.level,
    'api',
    options.logStream,
  );
  const moduleRef = await Test.createTestingModule({
    imports: [ApiModule.forRoot({ config, logger })],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createHttpAdapter(logger, config.http),
    HTTP_APP_OPTIONS,
  );
  catalogs.set(app, configureApi(app, logger));
  const document = openApiDocumentOf(app);
  if (!document) throw new Error('configureApi built no OpenAPI document');
  checkResponsesAgainst(app.getHttpAdapter().getInstance(), document as unknown as OpenApiDocument);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

const catalogs = new WeakMap<NestFastifyApplication, RouteCatalog>();

/** The `/api/v1` routes of an app started by startApi, as Fastify registered them. */
export function routeCatalogOf(app: NestFastifyApplication): RouteCatalog {
  const catalog = catalogs.get(app);
  if (!catalog) throw new Error('not an app of startApi');
  return catalog;
}

/** The worker as worker.ts builds it (relay, consumers, queues), in-process; call close() after. */
export async function startWorker(config: AppConfig = testConfig()): Promise<TestingModule> {
  const worker = await Test.createTestingModule({
    imports: [
      WorkerModule.forRoot({ config, logger: createRootLogger(config.log.level, 'worker') }),
    ],
  }).compile();
  await worker.init();
  return worker;
}

export interface WorkerAppOptions {
  config?: AppConfig;
  /** The consumers of each domain event type, in place of the worker's (e.g. a slow consumer). */
  consumers?: DomainEventConsumers;
}

/**
 * The worker as worker.ts runs it, HTTP included (health, `/metrics`, the queue dashboard),
 * in-process and listening on 127.0.0.1 at a free port; call close() after.
 */
export async function startWorkerApp(
  options: WorkerAppOptions = {},
): Promise<{ worker: NestFastifyApplication; url: string }> {
  const config = options.config ?? testConfig();
  const logger = createRootLogger(config.log.level, 'worker');
  const builder = Test.createTestingModule({
    imports: [WorkerModule.forRoot({ config, logger })],
  });
  if (options.consumers)
    builder.overrideProvider(DOMAIN_EVENT_CONSUMERS).useValue(options.consumers);
  const moduleRef = await builder.compile();
  const worker = moduleRef.createNestApplication<NestFastifyApplication>(
    createHttpAdapter(logger),
    HTTP_APP_OPTIONS,
  );
  await worker.listen(0, '127.0.0.1');
  const { port } = worker.getHttpServer().address() as { port: number };
  return { worker, url: `http://127.0.0.1:${port}` };
}

export interface TestAccount {
  id: number;
  apiKey: string;
  /** `Authorization` header value. */
  authorization: string;
}

export function basicAuth(id: number | string, key: string): string {
  return `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;
}

/** A fresh account of its own for a test (unique e-mail), created as the operator CLI does. */
export async function createAccount(
  app: { get: NestFastifyApplication['get'] },
  overrides: Partial<NewAccount> = {},
): Promise<TestAccount> {
  const { id, apiKey } = await app.get(CommandBus).execute(
    new CreateAccountCommand({
      email: `owner-${randomUUID()}@example.test`,
      name: 'Test Owner',
      timezone: 'America/New_York',
      ...overrides,
    }),
  );
  return { id, apiKey, authorization: basicAuth(id, apiKey) };
}
