import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { ShutdownState } from '../common/health/shutdown-state';

const IDLE_CONNECTION_REAP_MS = 50;

/**
 * Stops a process in the order a pod needs. First the drain (SHUTDOWN_DRAIN_MS): `/health/ready`
 * answers 503 and every response `Connection: close` while the process keeps serving, so that the
 * load balancer takes the pod out before anything is refused. Then stop accepting, finish the
 * requests in flight, and let Nest stop the rest (active jobs, the relay's pass, then the pools):
 * Nest's own hooks would close the pools before the server.
 */
export async function closeGracefully(app: INestApplication, drainMs = 0): Promise<void> {
  app.get(ShutdownState, { strict: false }).draining = true;
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const server = app.getHttpServer() as Server;
  // A keep-alive connection whose response ends after the close began would hold the close until
  // its client or the keep-alive timeout (72 s) ends it: end each as soon as it is idle.
  const reaper = setInterval(() => server.closeIdleConnections(), IDLE_CONNECTION_REAP_MS);
  try {
    await app.getHttpAdapter().close();
  } finally {
    clearInterval(reaper);
  }
  await app.close();
}

/** closeGracefully on SIGTERM/SIGINT; a second signal, or the timeout past the drain, exits. */
export function closeGracefullyOnSignals(
  app: INestApplication,
  logger: Logger,
  timeoutMs: number,
  drainMs = 0,
): void {
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
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
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}
