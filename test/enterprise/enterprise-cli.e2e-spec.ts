import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { Enterprise } from '../../src/modules/accounts/enterprise.entity';
import { runCli } from '../support/processes';
import { basicAuth, startApi } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';

const CREDENTIALS = { id: expect.any(Number), apiKey: expect.stringMatching(/^[0-9a-f]{32}$/) };

// Each command boots a process of its own (several at once below): on a loaded 2-core machine a
// boot can take well over ten seconds, and a test runs up to five in turn.
jest.setTimeout(180_000);

/** The operator's enterprise commands, each a process of its own, against a separate API process. */
describe('Operator CLI: enterprises (e2e, separate processes)', () => {
  let app: NestFastifyApplication;
  const env = testEnvVars();
  const email = () => `cli-enterprise-${randomUUID()}@example.test`;

  beforeAll(async () => {
    // No auth cache: what the CLI changes must show at once in this separate API process.
    app = await startApi({ config: testConfig({ auth: { cacheTtlMs: 0 } }) });
  });
  afterAll(() => app.close());

  const get = (url: string, id: unknown, key: unknown) =>
    app.inject({
      method: 'GET',
      url,
      headers: { authorization: basicAuth(String(id), String(key)) },
    });

  /** The JSON a command printed: credentials, or what it changed. */
  type Printed = { id: number; apiKey: string } & Record<string, unknown>;

  async function cli(args: string[]): Promise<Printed> {
    const run = await runCli(args, env);
    if (run.code !== 0) throw new Error(`${args.join(' ')} → ${run.code} ${run.stderr}`);
    return run.result as Printed;
  }

  it('enterprise:create, account:create --enterprise, enterprise:add-account: the key acts on both members', async () => {
    const enterprise = await cli(['enterprise:create', '--name', 'Acme Clinics']);
    expect(enterprise).toEqual(CREDENTIALS);
    const direct = await cli([
      'account:create',
      '--email',
      email(),
      '--name',
      'Direct',
      '--enterprise',
      String(enterprise.id),
    ]);
    const joined = await cli(['account:create', '--email', email(), '--name', 'Joined']);
    expect(
      await cli([
        'enterprise:add-account',
        '--enterprise',
        String(enterprise.id),
        '--account',
        String(joined.id),
      ]),
    ).toEqual({ enterpriseId: enterprise.id, accountId: joined.id });

    const users = await get('/api/enterprise/v1/users', enterprise.id, enterprise.apiKey);
    expect(users.statusCode).toBe(200);
    expect(users.json<{ id: number }[]>().map((u) => u.id)).toEqual([direct.id, joined.id]);
    for (const member of [direct, joined]) {
      const me = await get(
        `/api/enterprise/v1/users/${member.id}/me`,
        enterprise.id,
        enterprise.apiKey,
      );
      expect(me.json()).toEqual((await get('/api/v1/me', member.id, member.apiKey)).json());
    }
  });

  it('stores the enterprise key only encrypted and hashed', async () => {
    const { id, apiKey } = (await cli(['enterprise:create', '--name', 'Vault'])) as {
      id: number;
      apiKey: string;
    };
    const row = await app.get(DataSource).getRepository(Enterprise).findOneByOrFail({ id });
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect(app.get(Secrets).decrypt(row.apiKeyEncrypted)).toBe(apiKey);
    expect(app.get(Secrets).matches(apiKey, row.apiKeyHash)).toBe(true);
    expect(row.requestsPerMinute).toBe(6000);
  });

  it('enterprise:rotate-key: the old key is refused, the new one works', async () => {
    const enterprise = await cli(['enterprise:create', '--name', 'Rotator']);
    const rotated = await cli(['enterprise:rotate-key', '--id', String(enterprise.id)]);
    expect(rotated).toEqual({ ...CREDENTIALS, id: enterprise.id });
    const url = '/api/enterprise/v1/users';
    expect((await get(url, enterprise.id, enterprise.apiKey)).statusCode).toBe(401);
    expect((await get(url, enterprise.id, rotated.apiKey)).statusCode).toBe(200);
  });

  it('enterprise:set-limit stores the limit', async () => {
    const enterprise = await cli(['enterprise:create', '--name', 'Limited']);
    expect(
      await cli([
        'enterprise:set-limit',
        '--enterprise',
        String(enterprise.id),
        '--per-minute',
        '120',
      ]),
    ).toEqual({ id: enterprise.id, requestsPerMinute: 120 });
    const row = await app
      .get(DataSource)
      .getRepository(Enterprise)
      .findOneByOrFail({ id: enterprise.id });
    expect(row.requestsPerMinute).toBe(120);
  });

  it('refuses to move a member to another enterprise (an account has one at most)', async () => {
    const first = await cli(['enterprise:create', '--name', 'First']);
    const second = await cli(['enterprise:create', '--name', 'Second']);
    const account = await cli([
      'account:create',
      '--email',
      email(),
      '--name',
      'Member',
      '--enterprise',
      String(first.id),
    ]);
    // Adding again to its own enterprise changes nothing.
    expect(
      (
        await runCli(
          [
            'enterprise:add-account',
            '--enterprise',
            String(first.id),
            '--account',
            String(account.id),
          ],
          env,
        )
      ).code,
    ).toBe(0);
    const run = await runCli(
      [
        'enterprise:add-account',
        '--enterprise',
        String(second.id),
        '--account',
        String(account.id),
      ],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.result).toEqual({
      error: 'already_member',
      message: `The account "${account.id}" already belongs to the enterprise "${first.id}".`,
    });
    const users = await get('/api/enterprise/v1/users', second.id, second.apiKey);
    expect(users.json()).toEqual([]);
  });

  it.concurrent.each([
    [['enterprise:create'], 2, '--name is required'],
    [
      ['enterprise:rotate-key', '--id', '999999999'],
      1,
      'The enterprise "999999999" does not exist.',
    ],
    [
      ['enterprise:add-account', '--enterprise', '999999999', '--account', '1'],
      1,
      'The enterprise "999999999" does not exist.',
    ],
    [
      ['account:create', '--email', 'e@example.test', '--name', 'E', '--enterprise', '999999999'],
      1,
      'The enterprise "999999999" does not exist.',
    ],
    [
      ['account:create', '--email', 'e@example.test', '--name', 'E', '--enterprise', 'acme'],
      2,
      '--enterprise must be a positive integer',
    ],
    [
      ['enterprise:set-limit', '--enterprise', '999999999', '--per-minute', '10'],
      1,
      'The enterprise "999999999" does not exist.',
    ],
    [
      ['enterprise:set-limit', '--enterprise', '1', '--per-minute', '0'],
      2,
      '--per-minute must be a positive integer',
    ],
    [
      ['enterprise:set-limit', '--enterprise', '1', '--per-minute', '100000001'],
      1,
      'A limit must be 1 to 100000000 requests per minute.',
    ],
  ])('%j exits %i saying %s', async (args, code, message) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
  });

  it('enterprise:add-account of an account that does not exist says so', async () => {
    const enterprise = await cli(['enterprise:create', '--name', 'Lonely']);
    const run = await runCli(
      ['enterprise:add-account', '--enterprise', String(enterprise.id), '--account', '999999999'],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The account "999999999" does not exist.');
  });
});
