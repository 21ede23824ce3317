import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { ShutdownState } from '../common/health/shutdown-state';

const IDLE_CONNECTION_REAP_MS = 50;

/**
 * Stops a process in the order a pod needs. First the drain (`drainMs`, the API's
 * SHUTDOWN_DRAIN_MS): `/health/ready` answers 503 at once and every response carries
 * `Connection: close`, while the process keeps serving, so that the load balancer takes the pod out
 * and clients reconnect elsewhere before anything is refused. Then stop accepting and finish the
 * HTTP requests in flight, then let Nest stop the rest (queue consumers finish their active jobs,
 * the outbox relay its pass, pools close). Nest's own hooks would close the pools before the server.
 */
export async function closeGracefully(app: INestApplication, drainMs = 0): Promise<void> {
  app.get(ShutdownState, { strict: false }).draining = true;
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const server = app.getHttpServer() as Server;
  // A keep-alive connection whose response finishes after the close began would stay open until its
  // client or the keep-alive timeout (72 s) ends it, and the close would wait for it: end each one as
  // soon as it is idle.
  const reaper = setInterval(() => server.closeIdleConnections(), IDLE_CONNECTION_REAP_MS);
  try {
    await app.getHttpAdapter().close();
  } finally {
    clearInterval(reaper);
  }
  await app.close();
}

/**
 * closeGracefully on SIGTERM/SIGINT (after `drainMs` of drain); a second signal, or the timeout
 * (counted after the drain), exits at once.
 */
export function closeGracefullyOnSignals(
  app: INestApplication,
  logger: Logger,
  timeoutMs: number,
  drainMs = 0,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal, drainMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'graceful shutdown timed out; exiting');
      process.exit(1);
    }, drainMs + timeoutMs);
    timer.unref();
    void (async () => {
      try {
        await closeGracefully(app, drainMs);
        logger.info('stopped');
        logger.flush();
        process.exitCode = 0;
      } catch (err) {
        logger.error({ err }, 'error while shutting down');
        logger.flush();
        process.exitCode = 1;
      }
    })();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
