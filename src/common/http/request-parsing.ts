import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import qs from 'qs';
import { type DomainError, ExpectedJsonObjectError } from '../errors/domain-error';
import {
  AttributeTooLongError,
  BodyStringNotTextError,
  BodyStringTooLongError,
  FormTooLargeError,
  InvalidAttributeValueError,
  JsonTooDeepError,
  UnsupportedMediaTypeError,
} from './http.errors';

export const API_PREFIX = '/api/v1';
/** The OAuth 2.0 endpoints, at the host root beside the API (the contract's {auth_url}). */
export const OAUTH_PREFIX = '/oauth2/';
/** Largest request body the API reads (413 past it). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have (400 past it). */
export const MAX_JSON_DEPTH = 32;
/**
 * Longest string a JSON body may hold anywhere (400 past it): a backstop for attributes without a
 * limit of their own. Above every attribute's own limit (the longest, a form answer, is 10,000
 * characters after trimming), so that their errors come first; below what a TEXT column holds
 * (65,535 bytes: 16,000 characters of 4 bytes are 64,000).
 */
export const MAX_STRING_LENGTH = 16_000;
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

/** A key that may be named in an error: an attribute, not anything a client sent as a key. */
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * What the API refuses in any JSON body before its DTO sees it: nesting deeper than MAX_JSON_DEPTH
 * (validation and transformation recurse), a string longer than MAX_STRING_LENGTH or that is not
 * well-formed text (a lone surrogate) (400 with the attribute's code, `invalid_<attribute>`). One
 * walk over the parsed value; undefined when fine.
 */
export function jsonBodyProblem(value: unknown): DomainError | undefined {
  return walk(value, 0, []);
}

function walk(value: unknown, depth: number, path: (string | number)[]): DomainError | undefined {
  if (typeof value === 'string') {
    if (path.length === 0) return undefined; // not an attribute: the DTO refuses the body
    if (value.length > MAX_STRING_LENGTH) return tooLong(path);
    // A lone surrogate (`"\ud800"` in JSON) is no text: MySQL would refuse to store it.
    return isWellFormed(value) ? undefined : illFormed(path);
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_JSON_DEPTH) return new JsonTooDeepError(MAX_JSON_DEPTH);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' && typeof item !== 'string') continue;
      path.push(i);
      const problem = walk(item, depth + 1, path);
      path.pop();
      if (problem) return problem;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== 'object' && typeof item !== 'string') continue;
    path.push(key);
    const problem = walk(item, depth + 1, path);
    path.pop();
    if (problem) return problem;
  }
  return undefined;
}

/** `String.prototype.isWellFormed` (ES2024, in Node 20; not in this project's TypeScript lib). */
const isWellFormed = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

/** Whether the path is in a top-level attribute and every key of it may be named in an error. */
function namesAttributes(path: (string | number)[]): boolean {
  const named = path.every((p) => typeof p === 'number' || ATTRIBUTE_NAME.test(p));
  return typeof path[0] === 'string' && named;
}

function tooLong(path: (string | number)[]): DomainError {
  return namesAttributes(path)
    ? new AttributeTooLongError(path, MAX_STRING_LENGTH)
    : new BodyStringTooLongError(MAX_STRING_LENGTH);
}

function illFormed(path: (string | number)[]): DomainError {
  return namesAttributes(path)
    ? new InvalidAttributeValueError(path)
    : new BodyStringNotTextError();
}

export function isOAuthPath(url: string): boolean {
  return url.startsWith(OAUTH_PREFIX);
}

/**
 * Request bodies. Under /api/v1 every body is read as JSON whatever its Content-Type (clients such as
 * `curl -d` send form types with JSON in them); anything that does not parse is 400 "Expected a JSON
 * object.". `__proto__` and `constructor.prototype` keys are dropped. An empty body is no body.
 * At most BODY_LIMIT_BYTES (413), MAX_JSON_DEPTH levels and strings of MAX_STRING_LENGTH (400).
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
    void parseJson(req, body, (err, value) => {
      if (err) return done(new ExpectedJsonObjectError());
      const problem = jsonBodyProblem(value);
      return problem ? done(problem) : done(null, value);
    });
  };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (req, body, done) => {
      const text = body as string;
      if (!isOAuthPath(req.url)) return parse(req, text, done);
      if (Buffer.byteLength(text) > FORM_BODY_LIMIT_BYTES)
        return done(new FormTooLargeError(FORM_BODY_LIMIT_BYTES));
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
