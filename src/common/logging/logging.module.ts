import { randomUUID } from 'node:crypto';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { LoggerModule } from 'nestjs-pino';
import pino, { type Bindings, type DestinationStream, type LogFn, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** Injection token of the root pino logger (for code outside a request, and the error filter). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** How long a log line may wait in the buffer before it is written, however quiet the process. */
const LOG_FLUSH_INTERVAL_MS = 1000;

export type LogFormat = 'json' | 'pretty';

/**
 * How the process writes its logs: pretty, coloured lines for a person reading a terminal on a
 * developer machine (NODE_ENV=development and stdout a TTY, as `npm start` in a shell); one JSON
 * object per line everywhere else, for machines: pods, files, pipes, the tests.
 */
export function logFormat(nodeEnv: string, stdoutIsTTY: boolean | undefined): LogFormat {
  return nodeEnv === 'development' && stdoutIsTTY === true ? 'pretty' : 'json';
}

/**
 * The process's pino logger on stdout. JSON: one object per line, `time` in epoch milliseconds
 * (pino's default; formatting ISO strings was 3% of an authenticated GET in bench:http), written
 * synchronously (pino's default: nothing is lost to a full queue, and no thread pool round trip per
 * write, which was 5% of that GET) in batches of 4 KiB, and at least every second. Pretty (see
 * logFormat): pino-pretty in this thread, each line written at once (a person is watching).
 */
export function createRootLogger(
  level: string,
  name: string,
  stream?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  return pino(
    { level, base: { service: name } },
    stream ??
      (format === 'pretty'
        ? PinoPretty({
            sync: true,
            colorize: true,
            translateTime: 'SYS:HH:MM:ss.l',
            ignore: 'pid,hostname,service',
            messageFormat: '{service}: {msg}',
          })
        : pino.destination({
            dest: 1,
            sync: true,
            minLength: 4096,
            periodicFlush: LOG_FLUSH_INTERVAL_MS,
          })),
  );
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a well-formed `x-request-id` from the caller (a proxy), else makes one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * One JSON line per request: `reqId`, `method`, `url`, `statusCode`, `responseTime` (ms), flat so that
 * pino writes it without serialising nested objects. Health probes are not logged. Headers never are:
 * they carry credentials.
 */
export class RequestLogController extends LogController {
  constructor(private readonly logger: Logger) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (request.url.startsWith('/health/')) return;
    const line = {
      reqId: request.id,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) this.logger.error({ ...line, err: error }, 'request errored');
    else this.logger.info(line, 'request completed');
  }
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * `request.log`, made only when something logs through it: Fastify would otherwise build a pino child
 * for every request, which was a measurable share of an authenticated GET in bench:http.
 */
class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings): Logger {
    return this.logger.child(bindings);
  }
}

// The log methods forward their arguments as given (pino's overloads).
for (const level of LOG_METHODS) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value(this: { logger: Logger }, ...args: Parameters<LogFn>) {
      this.logger[level](...args);
    },
  });
}

/** Fastify's `childLoggerFactory`: request loggers carry the request id, and cost nothing unused. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings): FastifyBaseLogger {
  return new LazyChildLogger(logger as Logger, bindings) as unknown as FastifyBaseLogger;
}

/**
 * Structured JSON logs through nestjs-pino: Nest's Logger and PinoLogger write through the root pino
 * logger. Request lines are Fastify's (RequestLogController); nestjs-pino's own request middleware is
 * not mounted (`forRoutes: []`): the API runs without Nest's middleware layer, and binding a logger to
 * every request through AsyncLocalStorage cost a fifth of an authenticated GET in bench:http (Node 20
 * runs a promise hook for every promise while it is on). A line logged while serving a request names
 * the request by `reqId` itself (as the error filter does), or uses `request.log`.
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
