import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { CLIENT_CHALLENGE, OAuthEndpointError } from './oauth.errors';

/**
 * Errors of the token and disconnect endpoints, as the contract has them: `{error, message}`
 * without `status_code`, never cached. Anything unexpected is a bare `server_error` (logged).
 */
@Catch()
export class OAuthEndpointFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    let status = 500;
    let body = { error: 'server_error', message: 'Internal Server Error' };
    if (exception instanceof OAuthEndpointError) {
      status = exception.status;
      body = { error: exception.code, message: exception.message };
    } else {
      this.logger.error(
        { err: exception, reqId: request.id, method: request.method, url: request.url },
        'request failed',
      );
    }
    if (reply.sent) return;
    if (status === 401) void reply.header('www-authenticate', CLIENT_CHALLENGE);
    void reply
      .code(status)
      .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
      .type('application/json; charset=utf-8')
      .send(body);
  }
}
