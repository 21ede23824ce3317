import type { Duplex } from 'node:stream';
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { FastifyReply } from 'fastify';
import { DOCS_PATH } from './request-parsing';

/**
 * Headers of every response (OWASP's for REST APIs): nothing may be sniffed into another type,
 * framed, sent on as a referrer, read cross-origin, stored by a cache, or run as a page. Real pages
 * (the OAuth pages, Swagger UI) set their own policy over it.
 */
const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

const API_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Swagger UI: its own scripts and styles (and inline styles), data: images, the document. */
const DOCS_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** HSTS, only where the service is reached over https (a browser ignores it over http anyway). */
const HSTS = 'max-age=31536000; includeSubDomains';

export class SecurityHeaders {
  private readonly api: Record<string, string>;
  private readonly docs: Record<string, string>;

  constructor(publicUrl: string) {
    const https = publicUrl.startsWith('https:');
    const common = https
      ? { ...COMMON_HEADERS, 'strict-transport-security': HSTS }
      : COMMON_HEADERS;
    this.api = { ...common, 'content-security-policy': API_POLICY };
    // Swagger UI's assets may be cached; the page itself is static.
    const cacheable = { ...common };
    delete cacheable['cache-control'];
    this.docs = { ...cacheable, 'content-security-policy': DOCS_POLICY };
  }

  /** Sets them on a reply (the handler may replace some: a page's own CSP). */
  apply(url: string, reply: FastifyReply): void {
    void reply.headers(url.startsWith(DOCS_PATH) ? this.docs : this.api);
  }

  /** The raw header lines, for an answer written on the socket before any request exists. */
  lines(): string {
    return Object.entries(this.api)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
  }
}

/**
 * Node refuses a request it cannot parse before Fastify sees it (headers with the URL over
 * `maxHeaderSize`, a malformed request line, a request that took too long to arrive): the answer,
 * in the envelope with the security headers, is written on the socket, which is then closed.
 */
export function clientErrorHandler(
  headers: SecurityHeaders,
): (err: NodeJS.ErrnoException, socket: Duplex) => void {
  const extra = headers.lines();
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, `The request's headers and URL are larger than ${maxHeaderSize} bytes.`]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
    const error = STATUS_CODES[status]!.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    const body = JSON.stringify({ status_code: status, message, error });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
          `content-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
