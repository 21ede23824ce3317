import { createHmac } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, as it arrived. */
export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
  /** Date.now() when its body had arrived. */
  at: number;
}

/** How to answer a request: a status, optional headers, after an optional delay. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

type Answering = (request: ReceivedRequest, nth: number) => Answer;

/**
 * A webhook receiver of a test's own: a real HTTP server on 127.0.0.1 that records every request
 * and answers each path as told (200 by default).
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly answers = new Map<string, Answering>();

  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: ReceivedRequest = {
          path: req.url ?? '',
          method: req.method ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(request);
        const nth = this.received(request.path).length;
        const answer = this.answers.get(request.path)?.(request, nth) ?? { status: 200 };
        const reply = () => {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end('ok');
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Answers `path` with `answer` (a function gets the request and its rank on the path, from 1). */
  answer(path: string, answer: Answer | Answering): void {
    this.answers.set(path, typeof answer === 'function' ? answer : () => answer);
  }

  received(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** base64 HMAC-SHA256, computed here, independently of the service's code. */
export function hmacBase64(key: string, content: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(content, 'utf8').digest('base64');
}

/** A header's single value. */
export function header(request: ReceivedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Whether a request is signed with `apiKey` in both schemes: `x-service-signature` (the contract's:
 * base64 HMAC-SHA256 of the raw body) and Standard Webhooks (`v1,` + base64 HMAC-SHA256 of
 * `id.timestamp.body`), with a timestamp near now. Answers what is wrong, or null.
 */
export function signatureProblem(request: ReceivedRequest, apiKey: string): string | null {
  const id = header(request, 'webhook-id');
  const timestamp = header(request, 'webhook-timestamp');
  if (!id || !timestamp) return 'missing webhook-id or webhook-timestamp';
  if (header(request, 'x-service-signature') !== hmacBase64(apiKey, request.body))
    return 'x-service-signature does not match';
  if (
    header(request, 'webhook-signature') !==
    `v1,${hmacBase64(apiKey, `${id}.${timestamp}.${request.body}`)}`
  )
    return 'webhook-signature does not match';
  if (Math.abs(Number(timestamp) * 1000 - request.at) > 60_000)
    return `webhook-timestamp ${timestamp} is far from the arrival`;
  return null;
}

/**
 * A receiver that never answers: a real HTTP server on 127.0.0.1 that accepts every connection,
 * reads every request to its end, and then says nothing. What a hung or overloaded receiver looks
 * like to the sender: the connection is made, the request is taken, no response header comes.
 */
export class Tarpit {
  /** Requests taken so far (each one held until the sender gives up or the tarpit closes). */
  requests = 0;
  /** Requests held now: taken, their connection still open. */
  inFlight = 0;
  /** The most requests held at once. */
  mostInFlight = 0;
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req) => {
      req.resume();
      req.on('end', () => {
        this.requests += 1;
        this.inFlight += 1;
        this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
        req.socket.once('close', () => (this.inFlight -= 1));
      });
    });
  }

  static async start(): Promise<Tarpit> {
    const tarpit = new Tarpit();
    await new Promise<void>((resolve) => tarpit.server.listen(0, '127.0.0.1', resolve));
    return tarpit;
  }

  /** What a delivery to it counts against: `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Drops every connection it holds (their senders see a socket error at once), then stops. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
