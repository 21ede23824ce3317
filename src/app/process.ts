import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { createRootLogger, logFormat } from '../common/logging/logging.module';
import { AppConfig, loadDotEnv } from '../config/app-config';
import { ConfigError } from '../config/parse-environment';

/** Reads the configuration for an entry point; a bad variable ends the process with its name. */
export function configOrExit(): AppConfig {
  try {
    loadDotEnv();
    return AppConfig.fromEnvironment();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
}

/**
 * An HTTP process's entry point: its configuration and root logger (`service`), then `start`; a
 * failure to start is logged (`<name> failed to start`) and ends the process.
 */
export async function startProcess(
  service: string,
  name: string,
  start: (config: AppConfig, logger: Logger) => Promise<void>,
): Promise<void> {
  const config = configOrExit();
  const format = logFormat(config.env, process.stdout.isTTY);
  const logger = createRootLogger(config.log.level, service, undefined, format);
  try {
    await start(config, logger);
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    logger.flush();
    process.exit(1);
  }
}

/** The port the process's HTTP server listens on: the one the system picked when asked for 0. */
export function listeningPort(app: INestApplication): number {
  return ((app.getHttpServer() as Server).address() as AddressInfo).port;
}

/**
 * With an IPC channel to a parent (the tests), tells it the port the system picked (no two
 * processes race for one) and stops as on SIGTERM when that parent goes away: no orphan.
 */
export function reportListening(port: number): void {
  if (!process.send) return;
  process.send({ listening: port });
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel must not keep the process alive once its work is done.
  process.channel?.unref();
}
