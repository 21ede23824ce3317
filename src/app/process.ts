import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
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

/** The port the process's HTTP server listens on: the one the system picked when asked for 0. */
export function listeningPort(app: INestApplication): number {
  return ((app.getHttpServer() as Server).address() as AddressInfo).port;
}

/**
 * When a parent process started this one with an IPC channel (the tests do), tells it the port it
 * listens on (PORT=0 or WORKER_PORT=0: whichever the system picked, so that no two processes race
 * for a port), and stops as on SIGTERM if that parent goes away, leaving no orphan behind. Without
 * a channel (a pod, `npm start`) it does nothing.
 */
export function reportListening(port: number): void {
  if (!process.send) return;
  process.send({ listening: port });
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel must not keep the process alive once its work is done.
  process.channel?.unref();
}
