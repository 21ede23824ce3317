import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';

/** How a collection of the server answers. */
export type Collection =
  /** A calendar: its ctag and its objects; `withData: false` lists them without their data. */
  | { kind: 'calendar'; ctag: string; objects: string[]; withData?: boolean }
  /** Every request answered with this status (and a short body). */
  | { kind: 'status'; status: number }
  /** An HTML sign-in page, 200, to every request. */
  | { kind: 'page' }
  /** A WebDAV folder that is not a calendar. */
  | { kind: 'folder' }
  /** Takes the request and never answers. */
  | { kind: 'silent' }
  /**
   * A multistatus of `bytes` to `method` (the other method answered as a calendar), streamed in
   * 64 KiB pieces as the client reads them and never held whole; held after `holdAt` bytes until
   * `release` settles (or the client goes).
   */
  | {
      kind: 'huge';
      method: 'PROPFIND' | 'REPORT';
      bytes: number;
      holdAt?: number;
      release?: Promise<unknown>;
    };

const HEAD =
  '<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">';
const TAIL = '</d:multistatus>\n';
const OK = '<d:status>HTTP/1.1 200 OK</d:status>';
/** Notes of a huge answer's events: about 1 KiB an object, so that bytes, not events, run out first. */
const NOTES = 'Agenda, minutes and a long list of attendees. '.repeat(16);

/**
 * A CalDAV-speaking HTTP server of the test's own, written by hand because its job is to
 * misbehave as no real server does (Radicale, test/support/radicale.ts, is the well-behaved one):
 * each path is a collection answering PROPFIND (Depth 0) and REPORT (calendar-query,
 * calendar-multiget) as told. Records what it was asked and, per path, the bytes it wrote and
 * whether the client went away before the end.
 */
export class CaldavServer {
  readonly collections = new Map<string, Collection>();
  readonly requests: { method: string; path: string; body: string }[] = [];
  readonly streamed = new Map<string, { written: number; ended: boolean; clientLeft: boolean }>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        this.requests.push({ method: req.method ?? '', path, body });
        void this.answer(req, res, path, body).catch(() => res.destroy());
      });
    });
  }

  static async start(): Promise<CaldavServer> {
    const server = new CaldavServer();
    server.server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    return server;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse, path: string, body: string) {
    const collection = this.collections.get(path);
    const method = req.method ?? '';
    if (!collection) return res.writeHead(404).end('not here');
    switch (collection.kind) {
      case 'status':
        return res.writeHead(collection.status, { 'content-type': 'text/plain' }).end('no');
      case 'page':
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><body><form>Sign in</form></body></html>');
      case 'silent':
        return;
      case 'folder':
        return multistatus(res, [collectionResponse(path, '<d:collection/>', 'folder-1')]);
      case 'huge':
        if (method === collection.method) return this.stream(res, path, collection);
        return this.calendar(res, path, method, body, {
          kind: 'calendar',
          ctag: 'huge',
          objects: [],
        });
      case 'calendar':
        return this.calendar(res, path, method, body, collection);
    }
  }

  private calendar(
    res: ServerResponse,
    path: string,
    method: string,
    body: string,
    calendar: Extract<Collection, { kind: 'calendar' }>,
  ) {
    if (method === 'PROPFIND')
      return multistatus(res, [
        collectionResponse(path, '<d:collection/><c:calendar/>', calendar.ctag),
      ]);
    if (method !== 'REPORT') return res.writeHead(405).end();
    const multiget = body.includes('calendar-multiget');
    const withData = multiget || calendar.withData !== false;
    return multistatus(
      res,
      calendar.objects.map((data, i) => objectResponse(`${path}${i}.ics`, withData ? data : null)),
    );
  }

  private async stream(
    res: ServerResponse,
    path: string,
    huge: Extract<Collection, { kind: 'huge' }>,
  ): Promise<void> {
    const progress = { written: 0, ended: false, clientLeft: false };
    this.streamed.set(path, progress);
    let closed = false;
    res.on('close', () => {
      closed = true;
      progress.clientLeft = !progress.ended;
    });
    res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
    const write = async (text: string) => {
      progress.written += Buffer.byteLength(text);
      if (!res.write(text) && !closed) await drained(res);
    };
    const event = (i: number) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:huge-${i}@test\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300101T100000Z\r\nDTEND:20300101T110000Z\r\nSUMMARY:A meeting that is one of very many\r\nDESCRIPTION:${NOTES}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
    // One piece of about 64 KiB, written again and again: the test holds no more than that.
    let piece = '';
    for (let i = 0; piece.length < 64 * 1024; i++)
      piece += objectResponse(`${path}${i}.ics`, event(i));
    await write(HEAD);
    let held = huge.holdAt === undefined;
    while (!closed && progress.written + piece.length + TAIL.length <= huge.bytes) {
      await write(piece);
      if (!held && progress.written >= (huge.holdAt ?? 0)) {
        held = true;
        if (!closed) await Promise.race([huge.release, drained(res, ['close'])]);
      }
    }
    if (closed) return;
    await write(TAIL);
    progress.ended = true;
    res.end();
  }
}

/** The next of `events` on `res` (its listeners removed after: a stream writes this often). */
function drained(res: ServerResponse, events = ['drain', 'close']): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const e of events) res.off(e, done);
      resolve();
    };
    for (const e of events) res.on(e, done);
  });
}

function multistatus(res: ServerResponse, responses: string[]) {
  res
    .writeHead(207, { 'content-type': 'application/xml; charset=utf-8' })
    .end(`${HEAD}${responses.join('')}${TAIL}`);
}

function collectionResponse(path: string, resourcetype: string, ctag: string): string {
  return `<d:response><d:href>${path}</d:href><d:propstat><d:prop><d:resourcetype>${resourcetype}</d:resourcetype><cs:getctag>${ctag}</cs:getctag></d:prop>${OK}</d:propstat></d:response>`;
}

function objectResponse(href: string, data: string | null): string {
  const prop = data === null ? '' : `<c:calendar-data>${escape(data)}</c:calendar-data>`;
  return `<d:response><d:href>${href}</d:href><d:propstat><d:prop><d:getetag>"${href.length}"</d:getetag>${prop}</d:prop>${OK}</d:propstat></d:response>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
