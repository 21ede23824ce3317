import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { ApiExceptionFilter, sendError } from '../common/errors/api-exception.filter';
import { ApiValidationPipe } from '../common/http/api-validation.pipe';
import { RequestLimiter } from '../common/limits/request-limiter';
import { AppConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';
import {
  API_PREFIX,
  BODY_LIMIT_BYTES,
  DOCS_PATH,
  OPENAPI_PATH,
  parseQuery,
  registerBodyParsing,
  rewriteUrl,
} from '../common/http/request-parsing';
import { SecurityHeaders, clientErrorHandler } from '../common/http/security-headers';
import { RouteCatalog } from '../common/http/route-catalog';
import { registerHttpMetrics } from '../common/metrics/http-metrics';
import { Metrics } from '../common/metrics/metrics';
import { ShutdownState } from '../common/health/shutdown-state';
import {
  RequestLogController,
  lazyChildLogger,
  requestIdFor,
} from '../common/logging/logging.module';

/**
 * Fastify as the API runs it: URL normalisation, query arrays, request ids and logs, the client's
 * `request.ip` as TRUST_PROXY says. Requests refused before routing (unparsable HTTP, headers too
 * large, a bad URL) are answered in the envelope with the security headers too.
 */
export function createHttpAdapter(logger: Logger, http?: AppConfig['http']): FastifyAdapter {
  const security = new SecurityHeaders(http?.publicUrl ?? '');
  return new FastifyAdapter({
    trustProxy: http?.trustProxy ?? false,
    clientErrorHandler: clientErrorHandler(security),
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      security.apply(request.url, reply);
      sendError(error, request, reply, undefined, logger);
    },
    // No Nest middleware in this service: without middie every request skips a layer (bench:http).
    skipMiddie: true,
    loggerInstance: logger,
    childLoggerFactory: lazyChildLogger,
    logController: new RequestLogController(logger),
    rewriteUrl,
    routerOptions: { querystringParser: parseQuery },
    genReqId: (req: IncomingMessage) => requestIdFor(req.headers['x-request-id']),
    bodyLimit: BODY_LIMIT_BYTES,
    // On close, drop idle keep-alive sockets at once; in-flight requests finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
}

/** NestFactory options for an HTTP process: our own body parsing, logs buffered until pino is set. */
export const HTTP_APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/**
 * Everything between the framework and the contract, for the API process and e2e tests alike:
 * request limits, error envelope, validation, body parsing, the `/api/v1` prefix, OpenAPI. Call
 * before init.
 */
export function configureApi(app: NestFastifyApplication, logger: Logger): RouteCatalog {
  const fastify = app.getHttpAdapter().getInstance();
  const routes = new RouteCatalog(API_PREFIX);
  const security = new SecurityHeaders(app.get(AppConfig).http.publicUrl);
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));
  const shutdown = app.get(ShutdownState);
  // One hook for what every response carries: its request id, the security headers, and
  // `Connection: close` once stopping (a kept-alive connection, as kube-proxy keeps them, would go
  // on sending to a pod about to close).
  //
  // The request goes on in the next turn of the event loop (setImmediate), with the others read in
  // this turn, so that their answers are written back to back: a write that wakes a peer costs far
  // more than one to a peer already awake (bench:http, 2 vCPU: ~150 → ~100 µs of CPU per
  // authenticated GET under load). It costs a request at most this hook's work for the others.
  // With the request limits on, their hook holds a turn's requests together instead (one call to
  // Redis, then on together with its verdicts).
  const limiter = app.get(RequestLimiter);
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id);
    if (shutdown.draining) void reply.header('connection', 'close');
    security.apply(req.url, reply);
    if (limiter.enabled) done();
    else setImmediate(done);
  });
  if (limiter.enabled) fastify.addHook('onRequest', limiter.onRequest);
  registerBodyParsing(fastify);
  registerHttpMetrics(fastify, app.get(Metrics));

  app.useLogger(app.get(NestPinoLogger));
  setApiPrefix(app);
  app.useGlobalFilters(new ApiExceptionFilter(routes, logger));
  app.useGlobalPipes(new ApiValidationPipe());
  SwaggerModule.setup(DOCS_PATH.slice(1), app, buildOpenApiDocument(app), {
    useGlobalPrefix: false,
    jsonDocumentUrl: OPENAPI_PATH.slice(1),
    yamlDocumentUrl: `${API_PREFIX.slice(1)}/openapi.yaml`,
    swaggerOptions: { persistAuthorization: true },
  });
  return routes;
}

/**
 * Health, OAuth 2.0 (the contract's {auth_url} is the host root), the enterprise API's own
 * endpoints (a member's v1 routes are reached by rewriteUrl, see enterprise-routing.ts) and the
 * client pages live outside /api/v1.
 */
export function setApiPrefix(app: INestApplication): void {
  app.setGlobalPrefix(API_PREFIX.slice(1), {
    exclude: [
      'health/live',
      'health/ready',
      'oauth2/{*path}',
      'api/enterprise/{*path}',
      'schedule/{*path}',
      'confirmation/{*path}',
      'pages/{*path}',
    ],
  });
}
