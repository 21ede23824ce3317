import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DomainError } from '../../common/errors/domain-error';
import { logFailure } from '../../common/errors/api-exception.filter';
import { messagesOf } from '../../common/i18n';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { messagePage } from './layout';
import { PageRefusal, languageOf } from './page-requests';
import { sendPage } from './page-security';

/**
 * Errors of the client pages: a page a person can read, in the request's language (its `lang`,
 * else its browser's: no account is known here), never the API's JSON nor a stack.
 */
@Catch()
export class PagesFilter implements ExceptionFilter {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    const lang = languageOf(request);
    const t = messagesOf(lang);
    if (exception instanceof DomainError && exception.status < 500) {
      const title = t(exception.status === 404 ? 'page.notFound' : 'page.refused');
      const message = exception instanceof PageRefusal ? t(exception.key) : exception.message;
      return sendPage(reply, exception.status, messagePage({ lang }, title, message));
    }
    logFailure(this.logger, exception, request);
    sendPage(reply, 500, messagePage({ lang }, t('page.failed'), t('page.failedText')));
  }
}
