import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { track } from './processes';

/**
 * A TCP port of 127.0.0.1 that was free a moment ago. Only for servers that cannot be asked to pick
 * one and tell it (redis-server: `--port 0` turns TCP off), which then retry when it was taken
 * meanwhile; the service's own processes listen on port 0 (startEntry in processes.ts).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A Redis server of a test's own (Debian's redis-server, in memory only), which the test may stop and
 * start again on the same port: how a test sees what happens while Redis is down.
 */
export class PrivateRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    for (let attempt = 1; ; attempt++) {
      const redis = new PrivateRedis(await freePort());
      try {
        await redis.start();
        return redis;
      } catch (err) {
        // Another process took the port between freePort() and redis-server's bind: try another.
        if (attempt === 5) throw err;
      }
    }
  }

  /** Starts the server (again, on the same port); does nothing while it runs. */
  async start(): Promise<void> {
    if (this.process && this.process.exitCode === null) return;
    const child = track(
      spawn(
        'redis-server',
        ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      ),
    );
    this.process = child;
    const client = new Redis({ port: this.port, host: '127.0.0.1', retryStrategy: () => 50 });
    let timer: NodeJS.Timeout | undefined;
    let onExit: ((code: number | null) => void) | undefined;
    try {
      await Promise.race([
        client.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
          onExit = (code) =>
            reject(new Error(`redis-server exited (${code}) on port ${this.port}`));
          child.once('exit', onExit);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onExit) child.off('exit', onExit);
      client.disconnect();
    }
  }

  /** Kills the server at once (everything in it is lost, as in a crash). */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.process = undefined;
  }
}
