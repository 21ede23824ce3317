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
  UnsupportedMediaTypeError,
} from './http.errors';
import { rewriteEnterpriseUrl } from './enterprise-routing';
import { PROTOTYPE_MEMBERS, jsonShape } from './json-shape';

export const API_PREFIX = '/api/v1';
/** The OAuth 2.0 endpoints, at the host root beside the API (the contract's {auth_url}). */
export const OAUTH_PREFIX = '/oauth2/';
/** The client pages and their assets, at the host root: their forms are posted form-encoded. */
export const PAGE_PREFIXES = ['/schedule/', '/confirmation/', '/pages/'] as const;
/** Largest request body the API reads (413 past it); its shape is bounded too (json-shape.ts). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Longest string a JSON body may hold anywhere (400 past it): above every attribute's own limit (a
 * form answer's 10,000), so that their errors come first; below a TEXT column (16,000 × 4 bytes).
 */
export const MAX_STRING_LENGTH = 16_000;
/** Largest form an OAuth endpoint reads: its forms hold a few short fields. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;
/** The one API path that really ends in `.json`. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
/** Swagger UI: served at this path and, with links relative to it, at this path and a `/`. */
export const DOCS_PATH = `${API_PREFIX}/docs`;

/**
 * Before routing: `//` → `/`; a trailing `/` dropped but on Swagger UI's path, so that the router
 * and the 404/405 answers agree; the `.json` suffix clients of the reference service send on API
 * paths dropped.
 */
export function normalizeUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  if (path.includes('//')) path = path.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/') && path !== `${DOCS_PATH}/`) path = path.slice(0, -1);
  if (path.endsWith('.json') && path.startsWith(`${API_PREFIX}/`) && path !== OPENAPI_PATH) {
    path = path.slice(0, -'.json'.length);
  }
  return path + query;
}

/** Fastify's `rewriteUrl`: normalizeUrl, and an enterprise member path to its v1 route. */
export function rewriteUrl(req: IncomingMessage): string {
  const url = normalizeUrl(req.url ?? '/');
  const rewritten = rewriteEnterpriseUrl(req, url);
  return rewritten === url ? url : normalizeUrl(rewritten);
}

/**
 * Query strings with arrays in the shapes clients send: `a[]=1&a[]=2`, `a[0]=1&a[1]=2` and (split
 * by the DTO, see IdList) `a=1,2`. Repeated plain keys combine into an array.
 */
export function parseQuery(query: string): Record<string, unknown> {
  if (query === '') return {};
  return qs.parse(query, {
    depth: 1,
    arrayLimit: 100,
    parameterLimit: 200,
    allowPrototypes: false,
    duplicates: 'combine',
  });
}

/** `Text/Plain; charset=utf-8` → `text/plain`. */
function mediaTypeOf(req: FastifyRequest): string {
  return (req.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
}

/** `application/json`, or a JSON-based type (`application/vnd.api+json`, RFC 6839). */
const isJson = (mediaType: string): boolean =>
  mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType);

/** A lone surrogate can only be escaped in the text (`\ud800`): UTF-8 was decoded with U+FFFD. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** A key that may be named in an error: an attribute, not anything a client sent as a key. */
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/**
 * The first string of a parsed JSON body (past `path`) longer than MAX_STRING_LENGTH or not
 * well-formed text: a lone surrogate, which MySQL would refuse to store (400
 * `invalid_<attribute>`).
 */
function jsonBodyProblem(value: unknown, path: (string | number)[] = []): DomainError | undefined {
  if (typeof value === 'string') {
    if (path.length === 0) return undefined; // not an attribute: the DTO refuses the body
    const named = namesAttributes(path);
    if (value.length > MAX_STRING_LENGTH)
      return named
        ? new AttributeTooLongError(path, MAX_STRING_LENGTH)
        : new BodyStringTooLongError(MAX_STRING_LENGTH);
    if (isWellFormed(value)) return undefined;
    return named ? new InvalidAttributeValueError(path) : new BodyStringNotTextError();
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries as Iterable<[string | number, unknown]>) {
    if (typeof item !== 'object' && typeof item !== 'string') continue;
    path.push(key);
    const problem = jsonBodyProblem(item, path);
    path.pop();
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Drops every key named after a member of Object.prototype at any depth, as `__proto__` and
 * `constructor` are: an own `toString` that is no function makes the object throw where it is
 * turned into text.
 */
function dropPrototypeMemberKeys(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) dropPrototypeMemberKeys(item);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (PROTOTYPE_MEMBERS.has(key)) delete object[key];
    else dropPrototypeMemberKeys(object[key]);
  }
}

/** `String.prototype.isWellFormed` (ES2024, in Node 20; not in this project's TypeScript lib). */
const isWellFormed = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

/** Whether the path is in a top-level attribute and every key of it may be named in an error. */
function namesAttributes(path: (string | number)[]): boolean {
  const named = path.every((p) => typeof p === 'number' || ATTRIBUTE_NAME.test(p));
  return typeof path[0] === 'string' && named;
}

export function isOAuthPath(url: string): boolean {
  return url.startsWith(OAUTH_PREFIX);
}

type Done = (err: Error | null, value?: unknown) => void;

/** Where a form-encoded body is read (OAuth endpoints, the client pages' forms). */
function takesForms(url: string): boolean {
  return isOAuthPath(url) || PAGE_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * Request bodies are JSON (`application/json`, `application/*+json`, or no Content-Type); another
 * type with a body is refused with 415 before it is read (browsers send a cross-site form or
 * `text/plain` without asking). What does not parse is 400 "Expected a JSON object."; an empty body
 * is none; `__proto__` and `constructor.prototype` keys are dropped; BODY_LIMIT_BYTES (413),
 * json-shape.ts and MAX_STRING_LENGTH (400) bound it. A PUT with no body or `[]` means `{}`. Under
 * /oauth2/ and PAGE_PREFIXES a form-encoded body of at most 16 KiB becomes a URLSearchParams (which
 * keeps repeated parameters); any other body is left unread for the endpoint to refuse.
 */
export function registerBodyParsing(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove');
  const parse = (req: FastifyRequest, body: string, done: Done) => {
    if (takesForms(req.url) || body.trim() === '') return done(null, undefined);
    const shape = jsonShape(body);
    if (shape.problem) return done(shape.problem);
    void parseJson(req, body, (err, value) => {
      if (err) return done(new ExpectedJsonObjectError());
      if (shape.prototypeMemberKeys) dropPrototypeMemberKeys(value);
      // Most bodies have no string that could be too long or hold a lone surrogate: no walk.
      const stringsToCheck = shape.longestString > MAX_STRING_LENGTH || SURROGATE_ESCAPE.test(body);
      const problem = stringsToCheck ? jsonBodyProblem(value) : undefined;
      return problem ? done(problem) : done(null, value);
    });
  };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  const refuse = (req: FastifyRequest, body: string, done: Done) => {
    if (takesForms(req.url) || body.trim() === '') return done(null, undefined);
    done(new UnsupportedMediaTypeError(mediaTypeOf(req)));
  };
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (req, body, done) => {
      const text = body as string;
      if (!takesForms(req.url)) return refuse(req, text, done);
      if (Buffer.byteLength(text) > FORM_BODY_LIMIT_BYTES)
        return done(new FormTooLargeError(FORM_BODY_LIMIT_BYTES));
      done(null, new URLSearchParams(text));
    },
  );
  // Any other type, and none (Fastify asks this parser for a body without a Content-Type).
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) =>
    req.headers['content-type'] === undefined || isJson(mediaTypeOf(req))
      ? parse(req, body as string, done)
      : refuse(req, body as string, done),
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
