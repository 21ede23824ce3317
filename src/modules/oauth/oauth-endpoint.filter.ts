import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { logFailure } from '../../common/errors/api-exception.filter';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { CLIENT_CHALLENGE, OAuthEndpointError } from './oauth.errors';

/** An answer of the token and disconnect endpoints, never cached (RFC 6749 §5.1). */
export function sendJson(reply: FastifyReply, status: number, body: object): void {
  void reply
    .code(status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send(body);
}

/** The token endpoints' errors as the contract has them; the unexpected, a logged server_error. */
@Catch()
export class OAuthEndpointFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const [request, reply] = host.getArgs<[FastifyRequest, FastifyReply]>();
    let status = 500;
    let body = { error: 'server_error', message: 'Internal Server Error' };
    if (exception instanceof OAuthEndpointError) {
      status = exception.status;
      body = { error: exception.code, message: exception.message };
    } else logFailure(this.logger, exception, request);
    if (reply.sent) return;
    if (status === 401) void reply.header('www-authenticate', CLIENT_CHALLENGE);
    sendJson(reply, status, body);
  }
}
