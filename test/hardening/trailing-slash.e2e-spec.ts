import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions } from 'fastify';
import { PlatformProbeController } from '../support/platform-probe.controller';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/**
 * Issue 20 item 8: `GET /api/v1/appointments/2/` answered 405 (the route catalog found the path
 * without its empty last segment, the router did not). A trailing slash is now the path without
 * it, on every route, the answers to a missing path included.
 */
describe('Hardening: a trailing slash is the path without it (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startApi({ controllers: [PlatformProbeController] });
    account = await createAccount(app);
  });
  afterAll(() => app.close());

  const send = async (method: InjectOptions['method'], url: string, payload?: string) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        authorization: account.authorization,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: res.statusCode,
      allow: res.headers.allow,
      body: res.headers['content-type']?.toString().startsWith('application/json')
        ? res.json<unknown>()
        : res.body.slice(0, 200),
    };
  };

  it.each([
    ['GET', '/api/v1/me', undefined, 200],
    ['GET', '/api/v1/me?x=1', undefined, 200],
    ['GET', '/api/v1/me.json', undefined, 200],
    ['GET', '/api/v1/appointments', undefined, 200],
    ['GET', '/api/v1/appointments?max=1&minDate=2030-01-01', undefined, 200],
    ['GET', '/api/v1/appointments/2', undefined, 404],
    ['GET', '/api/v1/calendars', undefined, 200],
    ['GET', '/api/v1/probe/widgets/5', undefined, 200],
    ['POST', '/api/v1/probe/echo', '{"name":"Ada"}', 201],
    ['POST', '/api/v1/probe/echo?x=1', '{"name":"Ada"}', 201],
    ['PUT', '/api/v1/probe/echo', '{"name":"Ada"}', 200],
    ['POST', '/api/v1/calendars', '{}', 400],
    ['DELETE', '/api/v1/me', undefined, 405],
    ['PUT', '/api/v1/appointments/2', '{}', 404],
    ['GET', '/api/v1/probe/widgets/abc', undefined, 404],
    ['GET', '/api/v1/appointment/2', undefined, 404],
    ['GET', '/api/v1/nothing-like-it', undefined, 404],
    ['GET', '/health/live', undefined, 200],
    ['GET', '/api/v1/openapi.json', undefined, 200],
  ] as const)(
    '%s %s answers with a slash after its path as without',
    async (method, url, payload, status) => {
      const [path, query] = url.split('?');
      const slashed = `${path}/${query === undefined ? '' : `?${query}`}`;
      const without = await send(method, url, payload);
      expect(without.status).toBe(status);
      expect({ url: slashed, ...(await send(method, slashed, payload)) }).toEqual({
        url: slashed,
        ...without,
      });
    },
  );

  it('answers the OAuth token endpoint with a trailing slash as without it', async () => {
    const token = (url: string) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=authorization_code&code=x',
      });
    const without = await token('/oauth2/token');
    const slashed = await token('/oauth2/token/');
    expect(without.statusCode).toBe(400);
    expect({ status: slashed.statusCode, body: slashed.json() }).toEqual({
      status: without.statusCode,
      body: without.json(),
    });
  });

  it('leaves the root as it is, and doubled slashes as they were', async () => {
    expect((await send('GET', '/')).status).toBe(404);
    expect((await send('GET', '/api/v1//me//')).status).toBe(200);
  });

  it('leaves Swagger UI its two paths, each with links that resolve from it', async () => {
    for (const page of ['/api/v1/docs', '/api/v1/docs/']) {
      const res = await app.inject({ method: 'GET', url: page });
      expect(res.statusCode).toBe(200);
      const stylesheet = /href="([^"]+\.css)"/.exec(res.body)?.[1] ?? '';
      const url = new URL(stylesheet, `http://x${page}`).pathname;
      expect({ url, status: (await app.inject({ method: 'GET', url })).statusCode }).toEqual({
        url,
        status: 200,
      });
    }
  });
});
