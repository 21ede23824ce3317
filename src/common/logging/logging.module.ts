import { randomUUID } from 'node:crypto';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import { Store, storage } from 'nestjs-pino/storage';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Injection token of the root pino logger (for code outside a request, and the error filter). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export function createRootLogger(level: string, name: string, stream?: DestinationStream): Logger {
  return pino(
    { level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime },
    stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a well-formed `x-request-id` from the caller (a proxy), else makes one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * One JSON line per request (id, method, url, status, duration), written by Fastify itself with the
 * request's child logger. Health probes are not logged. Headers never are: they carry credentials.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (request.url.startsWith('/health/')) return;
    const line = {
      req: { method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Binds the request's logger for nestjs-pino's PinoLogger (so that a service's logs carry the reqId)
 * in a Fastify hook: the service runs without Nest's middleware layer (middie), which cost a third of
 * the throughput of an authenticated GET in bench:http.
 */
export function bindRequestLogger(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) =>
    storage.run(new Store(request.log as Logger), done),
  );
}

/**
 * Structured JSON logs through nestjs-pino: Nest's Logger and PinoLogger write through pino, in the
 * request's context when there is one. Request logging itself is Fastify's (see createHttpAdapter).
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] })],
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}
