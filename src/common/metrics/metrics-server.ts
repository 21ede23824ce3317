import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../logging/logging.module';
import { Metrics } from './metrics';

/**
 * The API's `/metrics` on a port of its own (METRICS_PORT): for Prometheus, not for tenants on the
 * public port. A bare node:http server (no auth, logs or limits), closed after the API's listener.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private server: Server | undefined;

  constructor(
    private readonly metrics: Metrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Starts listening; resolves with the port (useful with 0: any free port). */
  async listen(port: number, host: string): Promise<number> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      this.metrics.scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        (err: unknown) => {
          this.logger.error({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable');
        },
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
