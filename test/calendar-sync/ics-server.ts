import { createHash } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server of .ics files, as a calendar host serves a feed: an ETag per content, 304 to
 * a matching If-None-Match, Basic credentials checked when a file asks for them. `status` makes it
 * fail. Counts what it answered.
 */
export class IcsServer {
  readonly files = new Map<string, { body: string; status?: number; credentials?: string }>();
  readonly answered: { path: string; status: number; authorization?: string }[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      const file = this.files.get(path);
      const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
        this.answered.push({ path, status, authorization: req.headers.authorization });
        res.writeHead(status, headers).end(body);
      };
      if (!file) return answer(404);
      if (file.status !== undefined) return answer(file.status, {}, 'failing');
      if (file.credentials !== undefined && req.headers.authorization !== file.credentials)
        return answer(401, { 'www-authenticate': 'Basic realm="feeds"' });
      const etag = `"${createHash('sha1').update(file.body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) return answer(304, { etag });
      answer(200, { 'content-type': 'text/calendar; charset=utf-8', etag }, file.body);
    });
  }

  static async start(): Promise<IcsServer> {
    const server = new IcsServer();
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(path: string, status: number): number {
    return this.answered.filter((a) => a.path === path && a.status === status).length;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
