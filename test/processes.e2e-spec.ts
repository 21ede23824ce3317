import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { migrations } from '../src/common/database/migrations';
import { eventually } from './support/eventually';
import {
  finished,
  spawnEntry,
  startEntry,
  track,
  waitForLine,
  waitForStatus,
} from './support/processes';
import { testConfig, testEnvVars } from './support/test-environment';

/** The API and worker entry points as separate processes, the way pods run them. */
describe('Processes: start-up, schema, graceful stop (e2e)', () => {
  it('refuses to start with a bad variable, naming it', async () => {
    const run = await finished(
      spawnEntry('main.ts', [], testEnvVars({ PORT: 'eighty', REDIS_PORT: '99999' })),
    );
    expect(run.code).toBe(78);
    expect(run.stderr).toContain('Invalid configuration:');
    expect(run.stderr).toContain('PORT: PORT must be an integer number (got "eighty")');
    expect(run.stderr).toContain(
      'REDIS_PORT: REDIS_PORT must not be greater than 65535 (got "99999")',
    );
  });

  it('an API whose parent dies (a test run killed outright) stops by itself: no orphan', async () => {
    // A parent that starts the API as the tests do (IPC channel, port 0), prints its pid and port,
    // then is killed with SIGKILL: nothing of it runs to stop its child.
    const parentScript = `
      const { spawn } = require('node:child_process');
      const api = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', ${JSON.stringify(
        join(__dirname, '..', 'src', 'main.ts'),
      )}], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: { ...process.env, PORT: '0' } });
      api.on('message', (m) => {
        if (m.listening) process.stdout.write(JSON.stringify({ pid: api.pid, port: m.listening }) + '\\n');
      });`;
    const parent = track(
      spawn(process.execPath, ['-e', parentScript], {
        env: { ...process.env, ...testEnvVars({ LOG_LEVEL: 'info' }) },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const { pid, port } = (await waitForLine(parent, (line) => 'pid' in line, 90_000)) as {
      pid: number;
      port: number;
    };
    await waitForStatus(`http://127.0.0.1:${port}/health/live`, 200);

    parent.kill('SIGKILL');
    // Gone, or a zombie waiting for init to reap it: either way it no longer runs.
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    try {
      await eventually(() => (running() ? undefined : true), 30_000);
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    } finally {
      // Not ours to track (its parent started it): if it outlived the test, end it here.
      if (running()) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);

  describe('on a machine without the database', () => {
    const database = `${testConfig().db.name.replace(/_test$/, '')}_fresh_test`;
    const mysql = () => {
      const { db } = testConfig();
      return createConnection({
        host: db.host,
        port: db.port,
        user: db.user,
        password: db.password,
      });
    };

    afterAll(async () => {
      const connection = await mysql();
      await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection.end();
    });

    it('API and worker started together create the database, migrate it once, serve, and stop on SIGTERM', async () => {
      const env = testEnvVars({
        DB_NAME: database,
        DB_MIGRATE_ON_START: 'true',
        LOG_LEVEL: 'info',
      });
      // Started together, as pods are: both race to migrate.
      const [
        { child: api, port: apiPort, exit: apiDone },
        { child: worker, port: workerPort, exit: workerDone },
      ] = await Promise.all([startEntry('main.ts', env), startEntry('worker.ts', env)]);

      await waitForStatus(`http://127.0.0.1:${apiPort}/health/ready`, 200);
      await waitForStatus(`http://127.0.0.1:${workerPort}/health/ready`, 200);

      const connection = await mysql();
      const [tables] = await connection.query(`SHOW TABLES FROM \`${database}\``);
      const [applied] = await connection.query(`SELECT name FROM \`${database}\`.migrations`);
      await connection.end();
      expect((tables as Record<string, string>[]).map((t) => Object.values(t)[0])).toEqual(
        expect.arrayContaining(['accounts', 'calendars', 'migrations', 'outbox']),
      );
      expect(applied).toEqual(migrations.map((m) => ({ name: m.name })));

      // The worker serves its health only, never the API.
      expect((await fetch(`http://127.0.0.1:${workerPort}/api/v1/me`)).status).toBe(404);
      const unauthorized = await fetch(`http://127.0.0.1:${apiPort}/api/v1/me`, {
        headers: { 'x-request-id': 'quiet-pod-1' },
      });
      expect(unauthorized.status).toBe(401);

      // A quiet process still writes its request log within the flush interval (not at exit).
      const requestLine = await waitForLine(
        api,
        (line) => line.reqId === 'quiet-pod-1' && line.msg === 'request completed',
      );
      expect(requestLine).toMatchObject({ service: 'api', statusCode: 401, url: '/api/v1/me' });

      api.kill('SIGTERM');
      worker.kill('SIGTERM');
      const [a, w] = await Promise.all([apiDone, workerDone]);
      expect({ code: a.code, stopped: a.stdout.includes('"msg":"stopped"') }).toEqual({
        code: 0,
        stopped: true,
      });
      expect({ code: w.code, stopped: w.stdout.includes('"msg":"stopped"') }).toEqual({
        code: 0,
        stopped: true,
      });
      // Exactly one of the two ran the migration; the other found nothing to do.
      const migratedBy = [a, w].filter((p) => p.stdout.includes('"msg":"database migrated"'));
      expect(migratedBy).toHaveLength(1);
    });
  });
});
