import { STATUS_CODES } from 'node:http';
import { HttpException, NotFoundException } from '@nestjs/common';
import { isDuplicateEntry } from '../database/mysql-errors';
import { BODY_LIMIT_BYTES } from '../http/request-parsing';
import type { RouteCatalog } from '../http/route-catalog';
import {
  BASIC_CHALLENGE,
  DomainError,
  TooManyRequestsError,
  UnauthorizedError,
} from './domain-error';

export interface ErrorEnvelope {
  status_code: number;
  message: string;
  error: string;
  /** A DomainError's `details`. */
  [detail: string]: unknown;
}

/** `Not Found` → `not_found`, `Payload Too Large` → `payload_too_large`. */
function codeFor(status: number): string {
  return (STATUS_CODES[status] ?? 'Error')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function envelope(
  status: number,
  error = codeFor(status),
  message = STATUS_CODES[status] ?? 'Error',
): ErrorEnvelope {
  return { status_code: status, message, error };
}

/** Fastify's own errors (body parsing, limits) carry a status and an `FST_ERR_…` code. */
function isFrameworkClientError(e: unknown): e is { statusCode: number; code?: string } {
  if (typeof e !== 'object' || e === null) return false;
  const status = (e as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Turns anything thrown while serving a request into the contract's envelope and headers. Only
 * client errors keep a specific message; everything else is a bare 500, `unexpected`: its details
 * go to the log with its stack, never the body.
 */
export function renderError(
  exception: unknown,
  request: { method: string; url: string },
  routes: RouteCatalog | undefined,
) {
  const headers: Record<string, string> = {};
  let body: ErrorEnvelope;

  if (exception instanceof DomainError) {
    body = {
      ...envelope(exception.status, exception.code, exception.message),
      ...exception.details,
    };
    if (exception instanceof TooManyRequestsError)
      headers['retry-after'] = String(exception.retryAfterSeconds);
  } else if (exception instanceof NotFoundException) {
    // Thrown by the router only: domain code throws NotFoundError.
    const allowed = routes?.allowedMethods(request.url) ?? [];
    if (allowed.length > 0) {
      headers.allow = allowed.join(', ');
      body = envelope(405);
    } else {
      const suggestion = routes?.suggest(request.url);
      body = envelope(
        404,
        'not_found',
        suggestion ? `Not Found. Did you mean \`${suggestion}\`?` : 'Not Found',
      );
    }
  } else if (isDuplicateEntry(exception)) {
    // A unique key refused a write that domain code did not anticipate (a race): the client may retry.
    body = envelope(409);
  } else if (exception instanceof HttpException && exception.getStatus() === 413) {
    // Fastify's body limit (bodyLimit), as Nest hands it over.
    body = envelope(
      413,
      'payload_too_large',
      `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`,
    );
  } else if (exception instanceof HttpException && exception.getStatus() < 500) {
    body = envelope(exception.getStatus());
  } else if (isFrameworkClientError(exception)) {
    body = envelope(exception.statusCode);
  } else {
    return { envelope: envelope(500), headers, unexpected: true };
  }

  if (body.status_code === 401)
    headers['www-authenticate'] =
      exception instanceof UnauthorizedError ? exception.challenge : BASIC_CHALLENGE;
  return { envelope: body, headers, unexpected: false };
}

/**
 * An error of an /oauth2/ request that never reached its endpoint, in the OAuth shape (RFC 6749
 * §5.2): no `status_code`, `invalid_request` (404 `not_found`, 429 `too_many_requests`) or
 * `server_error`.
 */
export function toOAuthError({ status_code: status, message }: ErrorEnvelope) {
  if (status >= 500) return { error: 'server_error', message };
  if (status === 404) return { error: 'not_found', message };
  if (status === 429) return { error: 'too_many_requests', message };
  return { error: 'invalid_request', message };
}
