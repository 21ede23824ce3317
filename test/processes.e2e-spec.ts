import { createConnection } from 'mysql2/promise';
import { migrations } from '../src/common/database/migrations';
import { finished, spawnEntry, startEntry, waitForLine, waitForStatus } from './support/processes';
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
