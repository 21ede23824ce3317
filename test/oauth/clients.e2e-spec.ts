import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { OAuthClient } from '../../src/modules/oauth/oauth-client.entity';
import { runCli } from '../support/processes';
import { startApi } from '../support/test-app';
import { testEnvVars } from '../support/test-environment';
import { requestOf } from './oauth-fixtures';

describe('OAuth 2.0: npm run cli -- oauth-client:create (e2e, separate processes)', () => {
  let app: NestFastifyApplication;
  const env = testEnvVars();

  beforeAll(async () => {
    app = await startApi();
  });
  afterAll(() => app.close());

  it('registers a client with its redirect URIs; prints {clientId, clientSecret} on the last line', async () => {
    const run = await runCli(
      [
        'oauth-client:create',
        '--name',
        'Calendar Sync',
        '--redirect-uri',
        'https://sync.example/oauth/callback',
        '--redirect-uri',
        'http://127.0.0.1:8123/callback',
        '--redirect-uri',
        'http://intranet.example/cb',
      ],
      env,
    );
    expect(run.code).toBe(0);
    // Plain http beyond this machine is allowed, with a warning on stderr.
    expect(run.stderr).toBe(
      'warning: http://intranet.example/cb is not https: use https beyond local development\n',
    );
    expect(run.result).toEqual({
      clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
      clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { clientId, clientSecret } = run.result as { clientId: string; clientSecret: string };

    // The secret is stored as its keyed hash only; the URIs exactly as given.
    const row = await app.get(DataSource).getRepository(OAuthClient).findOneByOrFail({ clientId });
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    expect(app.get(Secrets).matches(clientSecret, row.secretHash)).toBe(true);
    expect(row).toMatchObject({
      name: 'Calendar Sync',
      redirectUris: [
        'https://sync.example/oauth/callback',
        'http://127.0.0.1:8123/callback',
        'http://intranet.example/cb',
      ],
    });

    // Usable at once: the authorization page names it, for either redirect URI.
    for (const redirectUri of row.redirectUris) {
      const page = await app.inject({
        method: 'GET',
        url: `/oauth2/authorize?${requestOf({ clientId, clientSecret, name: '', redirectUri })}`,
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1>Sign in to connect Calendar Sync</h1>');
    }
  });

  // Each run is a process of its own (~10 s under ts-node): the rules of redirect URIs are
  // redirect-uri.spec.ts's; here, how the CLI reports a refusal.
  it.each([
    [['oauth-client:create', '--name', 'X'], 2, '--redirect-uri is required'],
    [
      ['oauth-client:create', '--name', 'X', '--redirect-uri', 'https://a.example/cb#frag'],
      1,
      'The redirect URI "https://a.example/cb#frag" must not contain a fragment.',
    ],
    [
      ['oauth-client:create', '--name', 'X', '--redirect-uri', 'ftp://a.example/cb'],
      1,
      'The redirect URI "ftp://a.example/cb" must be an http or https URL.',
    ],
  ])('%j exits %i saying %s', async (args, code, message) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
    if (code === 1) expect(run.result).toEqual({ error: 'invalid_redirect_uri', message });
  });
});
