import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { RotateEnterpriseKeyCommand } from '../../src/modules/accounts/enterprise.commands';
import { apiClient, apiError } from '../support/api-client';
import {
  type TestEnterprise,
  createEnterprise,
  createMember,
  memberClient,
  send,
} from '../support/enterprise-fixtures';
import { type TestAccount, basicAuth, createAccount, startApi } from '../support/test-app';

const unauthorized = apiError(401, 'unauthorized', 'Unauthorized');
const forbidden = apiError(403, 'forbidden', 'Forbidden');
const USERS = '/api/enterprise/v1/users';

describe('Enterprise API: members, credentials and isolation (e2e)', () => {
  let app: NestFastifyApplication;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let acme1: TestAccount;
  let acme2: TestAccount;
  let globex1: TestAccount;
  let loner: TestAccount;

  beforeAll(async () => {
    app = await startApi();
    acme = await createEnterprise(app, 'Acme Clinics');
    globex = await createEnterprise(app, 'Globex Salons');
    acme1 = await createMember(app, acme);
    acme2 = await createMember(app, acme);
    globex1 = await createMember(app, globex);
    loner = await createAccount(app);
  });
  afterAll(() => app.close());

  const me = async (account: TestAccount) =>
    (await send(app, 'GET', '/api/v1/me', account.authorization)).body as { id: number };

  describe('GET /users', () => {
    it("lists the enterprise's members, in the /me shape, by id", async () => {
      const res = await send(app, 'GET', USERS, acme.authorization);
      expect(res).toMatchObject({ status: 200, body: [await me(acme1), await me(acme2)] });
    });

    it("lists only the enterprise's own (another enterprise has its own)", async () => {
      const res = await send(app, 'GET', USERS, globex.authorization);
      expect(res).toMatchObject({ status: 200, body: [await me(globex1)] });
    });
  });

  describe('POST /users', () => {
    it('creates a member: the /me shape and its own key, shown once; the enterprise acts on it', async () => {
      const group = await createEnterprise(app);
      const res = await send(app, 'POST', USERS, group.authorization, {
        name: '  Uptown  ',
        email: 'Uptown-Enterprise@Example.test',
        timezone: 'europe/paris',
      });
      expect(res.status).toBe(200);
      const { apiKey, ...view } = res.body as { id: number; apiKey: string };
      expect(apiKey).toMatch(/^[0-9a-f]{32}$/);
      const own = await send(app, 'GET', '/api/v1/me', basicAuth(view.id, apiKey));
      expect(own).toMatchObject({ status: 200, body: view });
      expect(view).toMatchObject({
        name: 'Uptown',
        email: 'uptown-enterprise@example.test',
        timezone: 'Europe/Paris',
      });
      expect(await memberClient(app, group, view.id).get('/me')).toMatchObject({
        status: 200,
        body: view,
      });
      expect((await send(app, 'GET', USERS, group.authorization)).body).toEqual([view]);
    });

    it.each([
      [{ email: 'a@example.test' }, 400, 'required_name', 'Attribute "name" is required.'],
      [
        { name: 'A', email: 'not-an-email' },
        400,
        'invalid_email',
        'Invalid "email" attribute value.',
      ],
      [{ name: 'A' }, 400, 'required_email', 'Attribute "email" is required.'],
      [
        { name: 'A', email: 'b@example.test', timezone: 'Mars/Base' },
        400,
        'invalid_timezone',
        'Invalid timezone "Mars/Base".',
      ],
    ])('refuses %j: %i %s', async (body, status, error, message) => {
      const res = await send(app, 'POST', USERS, acme.authorization, body);
      expect(res).toMatchObject(apiError(status, error, message));
    });

    it('refuses an e-mail address an account has (409), and writes nothing', async () => {
      const taken = (await me(loner)) as unknown as { email: string };
      const res = await send(app, 'POST', USERS, acme.authorization, {
        name: 'Copy',
        email: taken.email,
      });
      expect(res).toMatchObject(
        apiError(409, 'email_taken', `An account with the e-mail "${taken.email}" already exists.`),
      );
      expect((await send(app, 'GET', USERS, acme.authorization)).body).toHaveLength(2);
    });
  });

  describe('credentials', () => {
    const enterprisePaths = (userId: number) =>
      [
        ['GET', USERS],
        ['POST', USERS],
        ['GET', '/api/enterprise/v1/webhooks'],
        ['GET', `${USERS}/${userId}/me`],
        ['GET', `${USERS}/${userId}/appointments`],
        ['POST', `${USERS}/${userId}/calendars`],
      ] as const;

    it("refuses a member's own key on every enterprise route (401)", async () => {
      for (const [method, path] of enterprisePaths(acme1.id)) {
        const res = await send(
          app,
          method,
          path,
          acme1.authorization,
          method === 'POST' ? {} : undefined,
        );
        expect({ path, ...res }).toMatchObject({ path, ...unauthorized });
        expect(res.headers['www-authenticate']).toBe('Basic realm="api", charset="UTF-8"');
      }
    });

    it.each([
      ['no credentials', undefined],
      ['a wrong key', (e: TestEnterprise) => basicAuth(e.id, 'f'.repeat(32))],
      ["another enterprise's key", (e: TestEnterprise) => basicAuth(e.id, globex.apiKey)],
      ['an unknown enterprise', () => basicAuth(987654, 'f'.repeat(32))],
      ['a Bearer token', () => 'Bearer abcdef'],
      [
        'a non-numeric id',
        (e: TestEnterprise) => `Basic ${Buffer.from(`x${e.id}:${e.apiKey}`).toString('base64')}`,
      ],
    ])('refuses %s (401)', async (_, header) => {
      const authorization = header?.(acme);
      for (const [method, path] of enterprisePaths(acme1.id)) {
        const res = await send(
          app,
          method,
          path,
          authorization,
          method === 'POST' ? {} : undefined,
        );
        expect({ path, ...res }).toMatchObject({ path, ...unauthorized });
      }
    });

    it("an enterprise's key is no account's key on /api/v1", async () => {
      expect(await send(app, 'GET', '/api/v1/me', acme.authorization)).toMatchObject(unauthorized);
    });

    it('a rotated key stops working at once; the new one works', async () => {
      const group = await createEnterprise(app);
      const member = await createMember(app, group);
      expect((await memberClient(app, group, member.id).get('/me')).status).toBe(200);
      const rotated = await app.get(CommandBus).execute(new RotateEnterpriseKeyCommand(group.id));
      expect(await memberClient(app, group, member.id).get('/me')).toMatchObject(unauthorized);
      const renewed = { ...rotated, authorization: basicAuth(group.id, rotated.apiKey) };
      expect((await memberClient(app, renewed, member.id).get('/me')).status).toBe(200);
    });
  });

  describe('isolation: the enterprise reaches its members only, on every verb', () => {
    const calls = [
      ['GET', '/me'],
      ['GET', '/appointments'],
      ['POST', '/calendars'],
      ['PUT', '/settings'],
      ['DELETE', '/calendars/1'],
      ['GET', '/webhooks'],
    ] as const;

    it.each([
      ["another enterprise's member", () => globex1.id],
      ['an account of no enterprise', () => loner.id],
    ])('%s is 403 forbidden, and nothing is written', async (_, target) => {
      const calendarsBefore = (await apiClient(app, globex1).get('/calendars')).body;
      for (const [method, path] of calls) {
        const res = await send(
          app,
          method,
          `${USERS}/${target()}${path}`,
          acme.authorization,
          method === 'POST' || method === 'PUT' ? { name: 'Intruder' } : undefined,
        );
        expect({ method, path, ...res }).toMatchObject({ method, path, ...forbidden });
      }
      expect((await apiClient(app, globex1).get('/calendars')).body).toEqual(calendarsBefore);
    });

    it('an account that does not exist is 404, on every verb', async () => {
      for (const id of [2147483647, 4294967295, 9999999999]) {
        for (const [method, path] of calls) {
          const res = await send(
            app,
            method,
            `${USERS}/${id}${path}`,
            acme.authorization,
            method === 'POST' || method === 'PUT' ? {} : undefined,
          );
          expect({ method, path, ...res }).toMatchObject({
            method,
            path,
            ...apiError(404, 'not_found', `The account "${id}" does not exist.`),
          });
        }
      }
    });

    it("a member's data is reached by its enterprise, and only by it", async () => {
      const created = await memberClient(app, acme, acme1.id).post('/calendars', {
        name: 'Room A',
      });
      expect(created.status).toBe(200);
      const id = (created.body as { id: number }).id;
      expect((await apiClient(app, acme1).get(`/calendars/${id}`)).body).toEqual(created.body);
      expect(await memberClient(app, acme, acme2.id).get(`/calendars/${id}`)).toMatchObject(
        forbidden,
      );
      expect(await memberClient(app, globex, acme1.id).get(`/calendars/${id}`)).toMatchObject(
        forbidden,
      );
    });
  });

  describe('hostile paths', () => {
    const notFound = { status: 404, body: { status_code: 404, error: 'not_found' } };

    it.each([
      '/../v1/me',
      '/{id}/../../../v1/me',
      '/%2e%2e/me',
      '/{id}%2Fme',
      '/{id}%2F..%2F{id}/me',
      '/abc/me',
      '/0/me',
      '/-1/me',
      '/01/me',
      '/0x10/me',
      '/1e3/me',
      '/99999999999/me',
      '/{400 nines}/me',
      '/{id}',
      '/{id}/',
      '/{id}/openapi.json',
      '/{id}/docs',
      '/%20{id}/me',
      '/{id}%00/me',
    ])('/users%s matches no route (404), whatever the credentials', async (path) => {
      const url =
        USERS + path.replaceAll('{id}', String(acme1.id)).replace('{400 nines}', '9'.repeat(400));
      for (const authorization of [acme.authorization, acme1.authorization, undefined]) {
        const res = await send(app, 'GET', url, authorization);
        expect({ url, ...res }).toMatchObject({ url, ...notFound });
      }
    });

    it('keeps the query string, and the .json suffix clients send', async () => {
      const own = await apiClient(app, acme1).get('/appointments?max=1&minDate=2020-01-01');
      const through = await memberClient(app, acme, acme1.id).get(
        '/appointments.json?max=1&minDate=2020-01-01',
      );
      expect(through).toMatchObject({ status: own.status, body: own.body });
    });
  });
});
