import { normalizeUrl, parseQuery } from './request-parsing';

describe('normalizeUrl', () => {
  it.each([
    ['/api/v1/appointments.json', '/api/v1/appointments'],
    ['/api/v1/appointments/5.json?max=1', '/api/v1/appointments/5?max=1'],
    ['/api/v1//appointments', '/api/v1/appointments'],
    ['//api///v1/me.json', '/api/v1/me'],
    ['/api/v1/openapi.json', '/api/v1/openapi.json'],
    ['/api/v1/me?file=a.json', '/api/v1/me?file=a.json'],
    ['/health/live', '/health/live'],
    ['/elsewhere/x.json', '/elsewhere/x.json'],
    // A trailing slash is the path without it (issue 20, item 8).
    ['/api/v1/appointments/2/', '/api/v1/appointments/2'],
    ['/api/v1/appointments/?max=1', '/api/v1/appointments?max=1'],
    ['/api/v1/appointments.json/', '/api/v1/appointments'],
    ['/api/v1/openapi.json/', '/api/v1/openapi.json'],
    ['/api/v1/me//', '/api/v1/me'],
    ['/health/live/', '/health/live'],
    ['/oauth2/token/', '/oauth2/token'],
    ['/api/v1/me?next=/a/', '/api/v1/me?next=/a/'],
    ['/', '/'],
    ['//', '/'],
    // Swagger UI's page links relative to where it is served.
    ['/api/v1/docs/', '/api/v1/docs/'],
  ])('%s → %s', (url, expected) => {
    expect(normalizeUrl(url)).toBe(expected);
  });
});

describe('parseQuery', () => {
  it('keeps plain values as strings and refuses prototype keys', () => {
    const query = parseQuery('max=10&email=a%40b.c&__proto__[x]=1&constructor[prototype][y]=2');
    expect(query).toEqual({ max: '10', email: 'a@b.c' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
