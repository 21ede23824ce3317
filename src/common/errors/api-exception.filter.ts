import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isOAuthPath } from '../http/request-parsing';
import type { RouteCatalog } from '../http/route-catalog';
import { renderError, toOAuthError } from './error-envelope';

/** Logs an error that no answer explains, with the request it failed. */
export function logFailure(logger: Logger, exception: unknown, request: FastifyRequest): void {
  logger.error(
    { err: exception, reqId: request.id, method: request.method, url: request.url },
    'request failed',
  );
}

/** Writes any error as the contract's envelope; unexpected ones are logged with the request id. */
export function sendError(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  routes: RouteCatalog | undefined,
  logger: Logger,
): void {
  const { envelope, headers, unexpected } = renderError(exception, request, routes);
  if (unexpected) logFailure(logger, exception, request);
  if (reply.sent) return;
  void reply
    .code(envelope.status_code)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(isOAuthPath(request.url) ? toOAuthError(envelope) : envelope);
}

/** The one exception filter of the API (errors of Nest routes, guards, pipes and the router's 404). */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly routes: RouteCatalog,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const [request, reply] = host.getArgs<[FastifyRequest, FastifyReply]>();
    sendError(exception, request, reply, this.routes, this.logger);
  }
}
