import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Injection token of the root pino logger (for code outside a request, and the error filter). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export function createRootLogger(level: string, name: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Honours a well-formed `x-request-id` from the caller (a proxy), else makes one. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** Structured JSON logs: one line per request with its id, method, route, status and duration. */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            // Fastify assigns the id (see createHttpAdapter); middie copies it onto the raw request.
            genReqId: (req: IncomingMessage) =>
              typeof req.id === 'string' ? req.id : requestIdFor(req.headers['x-request-id']),
            autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health/') },
            quietReqLogger: true,
            // Headers are never logged: they carry credentials.
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
      ],
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}
