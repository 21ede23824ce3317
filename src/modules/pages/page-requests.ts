import type { FastifyRequest } from 'fastify';
import { queryParams } from './scheduling-choices';
import { DomainError } from '../../common/errors/domain-error';
import {
  DEFAULT_LANGUAGE,
  type Language,
  type MessageKey,
  chooseLanguage,
  messagesOf,
} from '../../common/i18n';

/**
 * A page's refusal said in words of the catalogues: the filter (PagesFilter) writes it in the
 * request's language; its message is the English one (logs, tests).
 */
export class PageRefusal extends DomainError {
  constructor(
    status: 404 | 400,
    readonly key: MessageKey,
  ) {
    super(status, status === 404 ? 'not_found' : 'bad_request', messagesOf('en')(key));
  }
}

/** The form of a page's POST (form-encoded); anything else is refused. */
export function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams)) throw new PageRefusal(400, 'page.formOnly');
  return request.body;
}

/** A path parameter as an id; anything else names no page. */
export function pathId(request: FastifyRequest, name: string, key: MessageKey): number {
  const value = (request.params as Record<string, string | undefined>)[name] ?? '';
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 4_294_967_295)
    throw new PageRefusal(404, key);
  return Number(value);
}

/**
 * The language a page is written in: the link's or form's `lang`, else the browser's
 * (`Accept-Language`), else `fallback` (the account's setting, or the appointment's language).
 */
export function languageOf(
  request: FastifyRequest,
  fallback: Language = DEFAULT_LANGUAGE,
  form?: URLSearchParams,
  /** Whether the browser's language counts (not where the client already chose one: booked in). */
  header = true,
): Language {
  // As readChoices reads it: the first `lang` given (`lang=de&lang=es`, `lang[]=de`).
  const asked = form ? form.get('lang') : queryParams(request.query).get('lang');
  const acceptLanguage = header ? request.headers['accept-language'] : undefined;
  return chooseLanguage({ asked, acceptLanguage }, fallback);
}
