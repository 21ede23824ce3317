import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Secrets } from '../src/common/crypto/secrets';
import { migrations } from '../src/common/database/migrations';
import { Account } from '../src/modules/accounts';
import { runCli } from './support/processes';
import { basicAuth, startApi } from './support/test-app';
import { testConfig, testEnvVars } from './support/test-environment';

describe('Operator CLI (e2e, separate processes)', () => {
  let app: NestFastifyApplication;
  const env = testEnvVars();
  const email = () => `cli-${randomUUID()}@example.test`;

  beforeAll(async () => {
    // No auth cache: what the CLI changes must show at once in this separate API process.
    app = await startApi({ config: testConfig({ auth: { cacheTtlMs: 0 } }) });
  });
  afterAll(() => app.close());

  const me = (id: unknown, key: unknown) =>
    app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: basicAuth(String(id), String(key)) },
    });

  it('account:create prints the credentials as JSON on the last line; they work at once', async () => {
    const address = email();
    const run = await runCli(
      [
        'account:create',
        '--email',
        address.toUpperCase(),
        '--name',
        'Ada Clinic',
        '--timezone',
        'Asia/Kathmandu',
      ],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.result).toEqual({
      id: expect.any(Number),
      apiKey: expect.stringMatching(/^[0-9a-f]{32}$/),
    });

    const res = await me(run.result!.id, run.result!.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: run.result!.id,
      email: address,
      name: 'Ada Clinic',
      timezone: 'Asia/Kathmandu',
    });
  });

  it('stores the API key only encrypted and hashed', async () => {
    const run = await runCli(['account:create', '--email', email(), '--name', 'Vault'], env);
    const row = await app
      .get(DataSource)
      .getRepository(Account)
      .findOneByOrFail({ id: run.result!.id as number });
    const apiKey = run.result!.apiKey as string;
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect(app.get(Secrets).decrypt(row.apiKeyEncrypted)).toBe(apiKey);
    expect(app.get(Secrets).matches(apiKey, row.apiKeyHash)).toBe(true);
    expect(row.timezone).toBe('UTC');
  });

  it.concurrent.each([
    [
      ['account:create', '--email', 'not-an-email', '--name', 'X'],
      1,
      'Invalid "email" attribute value.',
    ],
    [
      ['account:create', '--email', 'x@example.test', '--name', 'X', '--timezone', 'Mars/Base'],
      1,
      'Invalid timezone "Mars/Base".',
    ],
    [
      ['account:create', '--email', 'x@example.test', '--name', 'X', '--password', 'short'],
      1,
      'A password must be 8 to 1024 characters long.',
    ],
    [['account:create', '--email', 'x@example.test'], 2, '--name is required'],
    [
      ['account:create', '--email', 'x@example.test', '--name', 'X', '--colour', 'red'],
      2,
      "Unknown option '--colour'",
    ],
    [['account:rotate-key', '--id', 'abc'], 2, '--id must be a positive integer'],
    [['account:rotate-key', '--id', '999999999'], 1, 'The account "999999999" does not exist.'],
    [['account:frobnicate'], 2, 'Unknown command "account:frobnicate".'],
  ])('%j exits %i saying %s', async (args, code, message) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
  });

  it('refuses a second account with the same e-mail', async () => {
    const address = email();
    expect((await runCli(['account:create', '--email', address, '--name', 'One'], env)).code).toBe(
      0,
    );
    const again = await runCli(['account:create', '--email', address, '--name', 'Two'], env);
    expect(again.code).toBe(1);
    expect(again.result).toEqual({
      error: 'email_taken',
      message: `An account with the e-mail "${address}" already exists.`,
    });
  });

  it('account:rotate-key replaces the key: the old one is refused, the new one works', async () => {
    const created = (await runCli(['account:create', '--email', email(), '--name', 'Rotator'], env))
      .result!;
    const rotated = await runCli(['account:rotate-key', '--id', String(created.id)], env);
    expect(rotated.code).toBe(0);
    expect(rotated.result).toEqual({
      id: created.id,
      apiKey: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(rotated.result!.apiKey).not.toBe(created.apiKey);
    expect((await me(created.id, created.apiKey)).statusCode).toBe(401);
    expect((await me(created.id, rotated.result!.apiKey)).statusCode).toBe(200);
  });

  it('db:migrate creates a missing database and migrates it, even with DB_MIGRATE_ON_START=false', async () => {
    const { db } = testConfig();
    const database = `${db.name.replace(/_test$/, '')}_release_test`;
    try {
      const run = await runCli(['db:migrate'], testEnvVars({ DB_NAME: database }));
      expect(run.code).toBe(0);
      expect(run.result).toEqual({
        database,
        pending: false,
        migrations: migrations.map((m) => m.name),
      });
      const again = await runCli(['db:migrate'], testEnvVars({ DB_NAME: database }));
      expect(again.result).toEqual(run.result);
    } finally {
      await app.get(DataSource).query(`DROP DATABASE IF EXISTS \`${database}\``);
    }
  });

  it('account:set-password stores a password hash the account can sign in with', async () => {
    const created = (await runCli(['account:create', '--email', email(), '--name', 'Pw'], env))
      .result!;
    const run = await runCli(
      ['account:set-password', '--id', String(created.id), '--password', 'correct horse battery'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.result).toEqual({ id: created.id });
    const row = await app
      .get(DataSource)
      .getRepository(Account)
      .findOneByOrFail({ id: created.id as number });
    expect(row.passwordHash).not.toContain('correct horse');
    await expect(
      app.get(Secrets).verifyPassword('correct horse battery', row.passwordHash!),
    ).resolves.toBe(true);
  });
});
