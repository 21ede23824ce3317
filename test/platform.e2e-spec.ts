import { PassThrough } from 'node:stream';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '../src/config/app-config';
import { RotateApiKeyCommand } from '../src/modules/accounts/account.commands';
import { DataSource } from 'typeorm';
import { PlatformProbeController } from './support/platform-probe.controller';
import { type TestAccount, basicAuth, createAccount, startApi } from './support/test-app';

describe('Platform: the error contract and request handling (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
    });
    app = await startApi({ controllers: [PlatformProbeController], logStream });
    account = await createAccount(app, { name: 'Platform Owner', timezone: 'Europe/Paris' });
  });

  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url,
      headers: { authorization: account.authorization, ...headers },
    });

  describe('GET /api/v1/me', () => {
    it('answers the authenticated account in the reference shape', async () => {
      const res = await get('/api/v1/me');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        id: account.id,
        email: expect.stringMatching(/^owner-.+@example\.test$/),
        name: 'Platform Owner',
        timezone: 'Europe/Paris',
        currency: 'USD',
        firstDayOfWeek: 0,
        timeFormat: 'ampm',
        schedulingPage: `http://localhost:3000/schedule/${account.id}`,
        plan: 'standard',
      });
    });

    it('accepts the optional .json suffix and doubled slashes', async () => {
      for (const url of ['/api/v1/me.json', '/api/v1//me', '//api/v1//me.json']) {
        const res = await get(url);
        expect({ url, status: res.statusCode, id: res.json().id }).toEqual({
          url,
          status: 200,
          id: account.id,
        });
      }
    });
  });

  describe('401 unauthorized', () => {
    const unauthorized = { status_code: 401, message: 'Unauthorized', error: 'unauthorized' };

    it.each([
      ['no credentials', undefined],
      ['a wrong API key', () => basicAuth(account.id, 'not-the-key')],
      ['an unknown user ID', () => basicAuth(999999999, account.apiKey)],
      ['a non-numeric user ID', () => basicAuth('abc', account.apiKey)],
      ["another account's key", () => basicAuth(account.id + 1, account.apiKey)],
      ['a malformed header', () => 'Basic !!!'],
      ['another scheme', () => 'Digest username="x"'],
    ])('refuses %s with the Basic challenge', async (_, header) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: header ? { authorization: header() } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(unauthorized);
      expect(res.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"');
    });
  });

  describe('a credential proven moments ago (answered from the cache, without passport)', () => {
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const me = (authorization: string) =>
      app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization } });

    it.each([
      ['the canonical header', (a: TestAccount) => a.authorization, 200],
      [
        'the scheme in lower case',
        (a: TestAccount) => `basic ${base64(`${a.id}:${a.apiKey}`)}`,
        200,
      ],
      [
        'the scheme in upper case',
        (a: TestAccount) => `BASIC ${base64(`${a.id}:${a.apiKey}`)}`,
        200,
      ],
      // The key is all that follows the first colon (RFC 7617), text after a second one included.
      ['text after a second colon', (a: TestAccount) => basicAuth(a.id, `${a.apiKey}:more`), 401],
      [
        'two spaces after the scheme',
        (a: TestAccount) => `Basic  ${base64(`${a.id}:${a.apiKey}`)}`,
        401,
      ],
      [
        'a key one character short',
        (a: TestAccount) => basicAuth(a.id, a.apiKey.slice(0, -1)),
        401,
      ],
      ['the key in upper case', (a: TestAccount) => basicAuth(a.id, a.apiKey.toUpperCase()), 401],
      ['a user ID with a leading zero', (a: TestAccount) => basicAuth(`0${a.id}`, a.apiKey), 401],
    ])('answers %s as passport did the first time', async (_, header, status) => {
      const owner = await createAccount(app);
      expect((await me(owner.authorization)).statusCode).toBe(200); // the key is proven now
      const first = await me(header(owner));
      const again = await me(header(owner));
      expect(first.statusCode).toBe(status);
      expect({ status: again.statusCode, body: again.json() }).toEqual({
        status: first.statusCode,
        body: first.json(),
      });
    });

    it('takes an account whose user ID was refused as unknown moments before', async () => {
      const owner = await createAccount(app);
      const id = 1_900_000_000 + owner.id;
      const header = basicAuth(id, owner.apiKey);
      expect((await me(header)).statusCode).toBe(401);
      // The account comes into being under that ID (as one created by the CLI, another process).
      const db = app.get(DataSource);
      await db.query('UPDATE accounts SET id = ? WHERE id = ?', [id, owner.id]);
      try {
        const res = await me(header);
        expect({ status: res.statusCode, id: res.json().id }).toEqual({ status: 200, id });
      } finally {
        await db.query('UPDATE accounts SET id = ? WHERE id = ?', [owner.id, id]);
      }
    });

    it('refuses a rotated key at once, and takes the new one', async () => {
      const owner = await createAccount(app);
      expect((await me(owner.authorization)).statusCode).toBe(200);
      const { apiKey } = await app.get(CommandBus).execute(new RotateApiKeyCommand(owner.id));
      const refused = await me(owner.authorization);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({
        status_code: 401,
        message: 'Unauthorized',
        error: 'unauthorized',
      });
      expect((await me(basicAuth(owner.id, apiKey))).statusCode).toBe(200);
      expect((await me(owner.authorization)).statusCode).toBe(401);
    });
  });

  it('403 forbidden', async () => {
    const res = await get('/api/v1/probe/forbidden');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status_code: 403, message: 'Forbidden', error: 'forbidden' });
  });

  describe('404 not_found', () => {
    it.each([
      ['/api/v1/probe/widget/5', 'Not Found. Did you mean `/probe/widgets/{id:number}`?'],
      ['/api/v1/probe/widgets/abc', 'Not Found. Did you mean `/probe/widgets/{id:number}`?'],
      ['/api/v1/mee', 'Not Found. Did you mean `/me`?'],
      ['/api/v1/nothing-like-it', 'Not Found'],
      ['/nowhere', 'Not Found'],
    ])('GET %s → %s', async (url, message) => {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status_code: 404, message, error: 'not_found' });
    });

    it('routes a numeric id', async () => {
      const res = await get('/api/v1/probe/widgets/5');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id: 5 });
    });
  });

  describe('405 method_not_allowed', () => {
    it.each([
      ['DELETE', '/api/v1/me', 'GET, HEAD'],
      ['POST', '/api/v1/me', 'GET, HEAD'],
      ['PATCH', '/api/v1/probe/echo', 'POST, PUT'],
      ['DELETE', '/api/v1/probe/widgets/7', 'GET, HEAD'],
    ] as const)('%s %s → Allow: %s', async (method, url, allow) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({
        status_code: 405,
        message: 'Method Not Allowed',
        error: 'method_not_allowed',
      });
      expect(res.headers.allow).toBe(allow);
    });
  });

  describe('400 bad_request: "Expected a JSON object."', () => {
    const expected = { status_code: 400, message: 'Expected a JSON object.', error: 'bad_request' };

    it.each([
      ['invalid JSON', '{"name": ', 'application/json'],
      ['a JSON string', '"name"', 'application/json'],
      ['a JSON array', '[{"name":"x"}]', 'application/json'],
      ['null', 'null', 'application/json'],
      ['no body', '', 'application/json'],
      ['non-JSON text', 'name=x', 'application/json'],
    ])('for %s', async (_, payload, contentType) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        headers: { authorization: account.authorization, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(expected);
    });

    it('for a POST without any body or content type', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(expected);
    });

    it('refuses JSON sent as a form (`curl -d` without a JSON content type) with 415', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        headers: {
          authorization: account.authorization,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: '{"name":"Ada"}',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        status_code: 415,
        message:
          'Content-Type "application/x-www-form-urlencoded" is not supported; send "application/json".',
        error: 'unsupported_media_type',
      });
    });

    it('drops unknown attributes and prototype keys', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        headers: { authorization: account.authorization, 'content-type': 'application/json' },
        payload:
          '{"name":"Ada","admin":true,"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ name: 'Ada' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('attribute validation', () => {
    it.each([
      [{}, 'required_name', 'Attribute "name" is required.'],
      [{ name: 42 }, 'invalid_name', 'Invalid "name" attribute value.'],
      [{ name: 'Ada', size: 'big' }, 'invalid_size', 'Invalid "size" attribute value.'],
      [{ name: 'Ada', email: 'nope' }, 'invalid_email', 'Invalid "email" attribute value.'],
    ])('%j → 400 %s', async (payload, error, message) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        headers: { authorization: account.authorization },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status_code: 400, message, error });
    });
  });

  describe('PUT with an empty body or [] means {}', () => {
    it.each([
      ['no body, no content type', undefined, undefined],
      ['empty JSON body', '', 'application/json'],
      ['[]', '[]', 'application/json'],
    ])('%s', async (_, payload, contentType) => {
      const res = await app.inject({
        method: 'PUT',
        url: '/api/v1/probe/echo',
        headers: {
          authorization: account.authorization,
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
    });
  });

  describe('array query parameters in all three shapes', () => {
    it.each(['ids[]=1&ids[]=2', 'ids[0]=1&ids[1]=2', 'ids=1,2', 'ids=1&ids=2'])(
      '%s',
      async (query) => {
        const res = await get(`/api/v1/probe/ids?${query}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ ids: [1, 2] });
      },
    );

    it('refuses a list with something that is not an id', async () => {
      const res = await get('/api/v1/probe/ids?ids=1,x');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status_code: 400,
        message: 'Invalid "ids" attribute value.',
        error: 'invalid_ids',
      });
    });
  });

  describe('500 internal_server_error', () => {
    it('shows nothing of the failure and logs it under the request id', async () => {
      const res = await get('/api/v1/probe/crash', { 'x-request-id': 'req-crash-1' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        status_code: 500,
        message: 'Internal Server Error',
        error: 'internal_server_error',
      });
      expect(res.body).not.toMatch(/SELECT|ER_|\/srv|\.ts|at /);
      expect(res.headers['x-request-id']).toBe('req-crash-1');
      await new Promise((r) => setTimeout(r, 50));
      const logged = logLines.find((l) => l.reqId === 'req-crash-1' && l.level === 50);
      expect(logged).toMatchObject({
        msg: 'request failed',
        err: { message: expect.stringContaining('ER_PARSE_ERROR') },
      });
    });
  });

  it('writes one JSON log line per request, and what request.log writes, under the request id', async () => {
    const res = await get('/api/v1/probe/log', { 'x-request-id': 'req-log-1' });
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const lines = logLines.filter((l) => l.reqId === 'req-log-1');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'probe logged', probe: true, service: 'api' }),
      {
        level: 30,
        time: expect.any(Number),
        service: 'api',
        reqId: 'req-log-1',
        method: 'GET',
        url: '/api/v1/probe/log',
        statusCode: 200,
        responseTime: expect.any(Number),
        msg: 'request completed',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain(account.apiKey);
    expect(JSON.stringify(lines)).not.toMatch(/authorization/i);
  });

  it('gives every response a request id, keeping a well-formed one from the caller', async () => {
    const own = await get('/api/v1/me', { 'x-request-id': 'abc-123' });
    expect(own.headers['x-request-id']).toBe('abc-123');
    const made = await get('/api/v1/me', { 'x-request-id': 'bad id with spaces' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('documentation', () => {
    it('serves the OpenAPI document without auth, titled v1, version 1.1', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.info).toMatchObject({ title: 'v1', version: '1.1' });
      expect(Object.keys(doc.paths)).toContain('/api/v1/me');
      expect(doc.components.securitySchemes.basic).toEqual(
        expect.objectContaining({ type: 'http', scheme: 'basic' }),
      );
    });

    it('serves Swagger UI', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/v1/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('swagger-ui');
    });
  });

  describe('health', () => {
    it('live and ready answer without auth, outside /api/v1', async () => {
      const live = await app.inject({ method: 'GET', url: '/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ok',
        details: { mysql: { status: 'up' }, redis: { status: 'up' } },
      });
    });
  });

  it('knows no config but its own', () => {
    expect(app.get(AppConfig).db.name).toMatch(/_test$/);
  });
});
