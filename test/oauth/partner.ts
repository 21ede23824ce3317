import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { finished, waitForLine } from '../support/processes';
import { freePort } from '../support/redis-server';
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
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const client = await registerClient(app, {
    name: 'Partner App',
    redirectUris: [`${base}/callback`],
  });
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(__dirname, 'partner-app.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        AUTH_URL: authUrl,
        CLIENT_ID: client.clientId,
        CLIENT_SECRET: client.clientSecret,
        CLIENT_AUTH: clientAuth,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const done = finished(child);
  await waitForLine(child, (line) => line.listening === port, 20_000);
  return {
    client,
    url: (path) => `${base}${path}`,
    stop: async () => {
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** What the partner's callback page shows. */
export function shownBy(html: string): { id: string; data: Record<string, unknown> } {
  const match = /<pre id="(result|error)">(.*)<\/pre>/s.exec(html);
  if (!match) throw new Error(`not a partner page:\n${html}`);
  return { id: match[1], data: JSON.parse(match[2]) as Record<string, unknown> };
}
