import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PlatformProbeController } from '../support/platform-probe.controller';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

const unsupported = (mediaType: string) => ({
  status_code: 415,
  error: 'unsupported_media_type',
  message: `Content-Type "${mediaType}" is not supported; send "application/json".`,
});

/**
 * Issue 20 item 9: every content type was read as JSON, so that a cross-site form (`text/plain`,
 * which a browser sends without asking) reached the API as JSON. JSON is taken as
 * `application/json` or `application/*+json`, or without a content type; a body of any other type
 * is refused with 415. The OAuth endpoints keep their form-encoded bodies.
 */
describe('Hardening: request bodies are JSON, by their content type (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startApi({ controllers: [PlatformProbeController] });
    account = await createAccount(app);
  });
  afterAll(() => app.close());

  const send = (
    contentType: string | undefined,
    payload: string | undefined,
    method: 'POST' | 'PUT' | 'DELETE' = 'POST',
    url = '/api/v1/probe/echo',
  ) =>
    app.inject({
      method,
      url,
      headers: {
        authorization: account.authorization,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      ...(payload === undefined ? {} : { payload }),
    });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset=UTF-8',
    'application/vnd.api+json',
    'application/merge-patch+json; charset=utf-8',
    undefined,
  ])('reads a body sent as %s', async (contentType) => {
    const res = await send(contentType, '{"name":"Ada"}');
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 201,
      body: { name: 'Ada' },
    });
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
    ['application/xml', 'application/xml'],
    ['text/json', 'text/json'],
    ['application/jsonp', 'application/jsonp'],
  ])('refuses a body sent as %s with 415', async (contentType, mediaType) => {
    for (const [method, url] of [
      ['POST', '/api/v1/probe/echo'],
      ['PUT', '/api/v1/probe/echo'],
      ['POST', '/api/v1/nothing-here'],
    ] as const) {
      const res = await send(contentType, '{"name":"Ada"}', method, url);
      expect({ method, url, status: res.statusCode, body: res.json() }).toEqual({
        method,
        url,
        status: 415,
        body: unsupported(mediaType),
      });
    }
  });

  it('does not echo a content type it cannot name', async () => {
    const res = await send(`application/${'x'.repeat(200)}`, '{"name":"Ada"}');
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 415,
      body: {
        status_code: 415,
        error: 'unsupported_media_type',
        message: 'This Content-Type is not supported; send "application/json".',
      },
    });
  });

  it('takes a request of another content type without a body as one without a body', async () => {
    const post = await send('text/plain', '');
    expect({ status: post.statusCode, body: post.json() }).toEqual({
      status: 400,
      body: { status_code: 400, error: 'bad_request', message: 'Expected a JSON object.' },
    });
    const put = await send('text/plain', '', 'PUT');
    expect({ status: put.statusCode, body: put.json() }).toEqual({ status: 200, body: {} });
  });

  describe('the OAuth endpoints keep form-encoded bodies (RFC 6749)', () => {
    const token = (contentType: string, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': contentType },
        payload,
      });

    it('reads a form-encoded token request', async () => {
      const res = await token(
        'application/x-www-form-urlencoded',
        'grant_type=authorization_code&code=nope&redirect_uri=https%3A%2F%2Fa.example%2Fcb&client_id=x&client_secret=y',
      );
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json()).toEqual({
        error: expect.stringMatching(/^invalid_(client|grant)$/),
        message: expect.any(String),
      });
    });

    it.each(['text/plain', 'application/json'])(
      'refuses a token request sent as %s in the OAuth shape',
      async (contentType) => {
        const res = await token(contentType, 'grant_type=authorization_code');
        expect({ status: res.statusCode, body: res.json() }).toEqual({
          status: 400,
          body: {
            error: 'invalid_request',
            message: 'The request body must be application/x-www-form-urlencoded.',
          },
        });
      },
    );
  });
});
