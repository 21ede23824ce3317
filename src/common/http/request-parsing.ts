import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import qs from 'qs';
import { DomainError, ExpectedJsonObjectError } from '../errors/domain-error';

export const API_PREFIX = '/api/v1';
/** The OAuth 2.0 endpoints, at the host root beside the API (the contract's {auth_url}). */
export const OAUTH_PREFIX = '/oauth2/';
/** Largest form an OAuth endpoint reads: its forms hold a few short fields. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;
/** The one API path that really ends in `.json`. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * Before routing: `//` → `/`, and an optional `.json` suffix on API paths is dropped
 * (`/api/v1/appointments.json` is `/api/v1/appointments`), as clients of the reference service send.
 */
export function normalizeUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path.endsWith('.json') && path.startsWith(`${API_PREFIX}/`) && path !== OPENAPI_PATH) {
    path = path.slice(0, -'.json'.length);
  }
  return path + query;
}

export function rewriteUrl(req: IncomingMessage): string {
  return normalizeUrl(req.url ?? '/');
}

/**
 * Query strings with arrays in the shapes clients send: `a[]=1&a[]=2`, `a[0]=1&a[1]=2` and (split by
 * the DTO, see IdList) `a=1,2`. Repeated plain keys combine into an array.
 */
export function parseQuery(query: string): Record<string, unknown> {
  return qs.parse(query, {
    depth: 1,
    arrayLimit: 100,
    parameterLimit: 200,
    allowPrototypes: false,
    duplicates: 'combine',
  });
}

class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super(415, 'unsupported_media_type', 'Unsupported Media Type');
  }
}

class FormTooLargeError extends DomainError {
  constructor() {
    super(
      413,
      'payload_too_large',
      `The request body is larger than ${FORM_BODY_LIMIT_BYTES} bytes.`,
    );
  }
}

export function isOAuthPath(url: string): boolean {
  return url.startsWith(OAUTH_PREFIX);
}

/**
 * Request bodies. Under /api/v1 every body is read as JSON whatever its Content-Type (clients such as
 * `curl -d` send form types with JSON in them); anything that does not parse is 400 "Expected a JSON
 * object.". `__proto__` and `constructor.prototype` keys are dropped. An empty body is no body.
 * A PUT with no body or the literal `[]` means `{}` (the contract).
 *
 * Under /oauth2/ (RFC 6749: form-encoded requests) an `application/x-www-form-urlencoded` body of at
 * most 16 KiB becomes a URLSearchParams, which keeps repeated parameters (the token endpoint refuses
 * them); any other body is left unread (`undefined`) for the endpoint to refuse in its own format.
 */
export function registerBodyParsing(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove');
  const parse = (
    req: FastifyRequest,
    body: string,
    done: (err: Error | null, value?: unknown) => void,
  ) => {
    if (isOAuthPath(req.url)) return done(null, undefined);
    if (body.trim() === '') return done(null, undefined);
    void parseJson(req, body, (err, value) =>
      err ? done(new ExpectedJsonObjectError()) : done(null, value),
    );
  };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (req, body, done) => {
      const text = body as string;
      if (!isOAuthPath(req.url)) return parse(req, text, done);
      if (Buffer.byteLength(text) > FORM_BODY_LIMIT_BYTES) return done(new FormTooLargeError());
      done(null, new URLSearchParams(text));
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) =>
    req.url.startsWith(`${API_PREFIX}/`) || isOAuthPath(req.url)
      ? parse(req, body as string, done)
      : done(new UnsupportedMediaTypeError()),
  );
  // Only PUT routes get the hook, so that no other request pays for it.
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('PUT')) return;
    const own = route.preValidation ?? [];
    route.preValidation = [emptyPutBodyAsObject, ...(Array.isArray(own) ? own : [own])];
  });
}

function emptyPutBodyAsObject(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  if (req.body === undefined || (Array.isArray(req.body) && req.body.length === 0)) req.body = {};
  done();
}
