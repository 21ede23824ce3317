import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DomainError } from '../../common/errors/domain-error';
import { logFailure } from '../../common/errors/api-exception.filter';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { redirectTo } from './authorization-request';
import { errorPage, sendPage, sendRedirect } from './oauth-pages';
import { AuthorizationPageError, AuthorizationRedirectError } from './oauth.errors';

/** The authorization pages' errors: back to a verified redirect URI, else an HTML error page. */
@Catch()
export class AuthorizePageFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const [request, reply] = host.getArgs<[FastifyRequest, FastifyReply]>();
    if (reply.sent) return;
    if (exception instanceof AuthorizationRedirectError) {
      const location = redirectTo(exception.redirectUri, {
        error: exception.code,
        error_description: exception.message,
        state: exception.state,
      });
      return sendRedirect(reply, request.method, location);
    }
    if (exception instanceof AuthorizationPageError)
      return sendPage(reply, exception.status, errorPage(exception.title, exception.message));
    if (exception instanceof DomainError && exception.status < 500)
      return sendPage(reply, exception.status, errorPage('Request refused', exception.message));
    logFailure(this.logger, exception, request);
    sendPage(
      reply,
      500,
      errorPage('Something went wrong', 'The service could not complete your request.'),
    );
  }
}
