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

/** Pretty lines for a person at a terminal (development and a TTY), else one JSON object a line. */
export function logFormat(nodeEnv: string, stdoutIsTTY: boolean | undefined): LogFormat {
  return nodeEnv === 'development' && stdoutIsTTY === true ? 'pretty' : 'json';
}

/**
 * The process's pino logger on stdout. JSON: `time` in epoch ms (ISO strings cost 3% of a GET),
 * written synchronously (nothing lost to a full queue, no thread pool round trip per write) in
 * batches of 4 KiB (LineBatches), at least every second. Pretty: each line written at once.
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
        : new LineBatches(
            pino.destination({ dest: 1, sync: true }),
            LOG_BATCH_CHARS,
            LOG_FLUSH_INTERVAL_MS,
          )),
  );
}

/** About 4 KiB of lines (a log line is ASCII but for what a client sent). */
const LOG_BATCH_CHARS = 4096;

/**
 * Log lines handed to the destination `batchChars` at a time, and every `intervalMs`, as one
 * string: SonicBoom's own batching measures its whole pending buffer on every write (~2% of a GET).
 * `flush` and `flushSync` (pino's, after a fatal line) write what is pending first.
 */
export class LineBatches implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;

  constructor(
    /** pino's own destination (a SonicBoom). */
    private readonly destination: ReturnType<typeof pino.destination>,
    private readonly batchChars: number,
    private readonly intervalMs: number,
  ) {}

  /** Pending lines wait at most `intervalMs`: a timer only while some wait, none left behind. */
  private timer: NodeJS.Timeout | undefined;

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.writeLines();
    }, this.intervalMs).unref();
    if (this.chars >= this.batchChars) this.writeLines();
  }

  flush(cb?: (err?: Error) => void): void {
    this.writeLines();
    this.destination.flush(cb);
  }

  flushSync(): void {
    this.writeLines();
    this.destination.flushSync();
  }

  private writeLines(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.destination.write(batch);
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a well-formed `x-request-id` from the caller (a proxy), else makes one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * One flat JSON line per request: `reqId`, `method`, `url`, `statusCode`, `responseTime` (ms); no
 * health probes, never headers (they carry credentials). A completed request's line is written here
 * as pino would write it for the root logger (the spec compares the two): pino's generic walk was
 * ~4% of a GET. Errored requests, and a destination that wants pino's metadata, go through pino.
 */
export class RequestLogController extends LogController {
  private readonly stream: DestinationStream & { [NEEDS_METADATA]?: boolean };
  private readonly infoLevel: number;

  constructor(private readonly logger: Logger) {
    super();
    this.stream = (logger as unknown as Record<symbol, typeof this.stream>)[pino.symbols.streamSym];
    this.infoLevel = logger.levels.values.info;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (request.url.startsWith('/health/')) return;
    if (error) {
      this.logger.error({ ...lineOf(request, reply), err: error }, 'request errored');
      return;
    }
    if (this.logger.levelVal > this.infoLevel) return;
    if (this.stream[NEEDS_METADATA] === true) {
      this.logger.info(lineOf(request, reply), 'request completed');
      return;
    }
    const bindings = (this.logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
    this.stream.write(
      `{"level":${this.infoLevel},"time":${Date.now()}${bindings},"reqId":${jsonString(request.id)},"method":${jsonString(request.method)},"url":${jsonString(request.url)},"statusCode":${reply.statusCode},"responseTime":${finite(reply.elapsedTime)},"msg":"request completed"}\n`,
    );
  }
}

/** A request's log line, for pino to write (errors, and destinations that want its metadata). */
const lineOf = (request: FastifyRequest, reply: FastifyReply) => ({
  reqId: request.id,
  method: request.method,
  url: request.url,
  statusCode: reply.statusCode,
  responseTime: reply.elapsedTime,
});

const NEEDS_METADATA = pino.symbols.needsMetadataGsym;

/** What JSON.stringify escapes in a string: quote, backslash, control characters, surrogates. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: quoted as it is when nothing needs escaping (nearly always). */
const jsonString = (text: string): string =>
  NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;

/** A number as pino writes it: `null` when not finite. */
const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** `request.log`, made only when something logs through it (not a pino child per request). */
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
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
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
 * Nest's Logger and PinoLogger write through the root pino logger. nestjs-pino's request middleware
 * is not mounted (`forRoutes: []`): AsyncLocalStorage per request cost a fifth of a GET. A line
 * logged while serving a request names it by `reqId`, or uses `request.log`.
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
