import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Finished, finished, track } from '../support/processes';
import { type TestClient, registerClient } from './oauth-fixtures';

const ROOT = join(__dirname, '..', '..');

/** The partner app (partner-app.ts) in a process of its own, registered as a client. */
export interface Partner {
  client: TestClient;
  url(path: string): string;
  stop(): Promise<void>;
}

/** The API on a real port of 127.0.0.1 (browsers and the partner app reach it over TCP). */
export async function listen(app: NestFastifyApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function startPartner(
  app: NestFastifyApplication,
  authUrl: string,
  clientAuth: 'post' | 'basic',
): Promise<Partner> {
  const child: ChildProcess = track(
    spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'partner-app.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
          AUTH_URL: authUrl,
          CLIENT_AUTH: clientAuth,
        },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    ),
  );
  const done = finished(child);
  // It listens on a port the system picks; its client is registered for that port's redirect URI.
  const { listening: port } = await message<{ listening: number }>(child, 'listening', done);
  const base = `http://127.0.0.1:${port}`;
  const client = await registerClient(app, {
    name: 'Partner App',
    redirectUris: [`${base}/callback`],
  });
  child.send({ clientId: client.clientId, clientSecret: client.clientSecret });
  await message(child, 'configured', done);
  return {
    client,
    url: (path) => `${base}${path}`,
    stop: async () => {
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** The child's first IPC message that has `key`; rejects if the child exits first or in 20 s. */
function message<T>(child: ChildProcess, key: string, exit: Promise<Finished>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`partner app: no ${key} within 20 s`)), 20_000);
    const onMessage = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m as T);
    };
    child.on('message', onMessage);
    void exit.then(({ code, signal, stderr }) => {
      clearTimeout(timer);
      reject(new Error(`partner app exited (${signal ?? code}) before ${key}\n${stderr}`));
    });
  });
}

/** What the partner's callback page shows. */
export function shownBy(html: string): { id: string; data: Record<string, unknown> } {
  const match = /<pre id="(result|error)">(.*)<\/pre>/s.exec(html);
  if (!match) throw new Error(`not a partner page:\n${html}`);
  return { id: match[1], data: JSON.parse(match[2]) as Record<string, unknown> };
}
