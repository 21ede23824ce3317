import type { FastifyRequest } from 'fastify';
import { BadRequestError, NotFoundError } from '../../common/errors/domain-error';

/** The form of a page's POST (form-encoded); anything else is refused. */
export function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams))
    throw new BadRequestError(
      'bad_request',
      'This page takes a form (application/x-www-form-urlencoded).',
    );
  return request.body;
}

/** A path parameter as an id; anything else names no page. */
export function pathId(request: FastifyRequest, name: string, message: string): number {
  const value = (request.params as Record<string, string | undefined>)[name] ?? '';
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 4_294_967_295)
    throw new NotFoundError(message);
  return Number(value);
}

export const FORM_EXPIRED =
  'This form has expired or did not come from this page. Please check your choices and send it again.';
