import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DomainError } from '../../common/errors/domain-error';
import { logFailure } from '../../common/errors/api-exception.filter';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { messagePage } from './layout';
import { sendPage } from './page-security';

/** Errors of the client pages: a page a person can read, never the API's JSON nor a stack. */
@Catch()
export class PagesFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    if (exception instanceof DomainError && exception.status < 500) {
      const title = exception.status === 404 ? 'Page not found' : 'Request refused';
      return sendPage(reply, exception.status, messagePage(title, exception.message));
    }
    logFailure(this.logger, exception, request);
    const sorry = 'The service could not complete your request. Please try again in a moment.';
    sendPage(reply, 500, messagePage('Something went wrong', sorry));
  }
}
