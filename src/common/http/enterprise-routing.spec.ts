import type { IncomingMessage } from 'node:http';
import { enterpriseMemberOf, rewriteEnterpriseUrl } from './enterprise-routing';
import { rewriteUrl } from './request-parsing';

const request = (url: string) => ({ url }) as IncomingMessage;

describe("rewriteUrl: the enterprise API's member paths to their v1 routes", () => {
  it.each([
    ['/api/enterprise/v1/users/7/me', '/api/v1/me', 7],
    ['/api/enterprise/v1/users/7/appointments?max=2&a[]=1', '/api/v1/appointments?max=2&a[]=1', 7],
    ['/api/enterprise/v1/users/7/appointments.json', '/api/v1/appointments', 7],
    ['/api/enterprise/v1/users/7//calendars/3/', '/api/v1/calendars/3', 7],
    ['//api/enterprise/v1/users/4294967295/me', '/api/v1/me', 4294967295],
    ['/api/enterprise/v1/users/9999999999/me', '/api/v1/me', 9999999999],
  ])('%s → %s as member %d', (url, rewritten, member) => {
    const req = request(url);
    expect(rewriteUrl(req)).toBe(rewritten);
    expect(enterpriseMemberOf(req)).toBe(member);
  });

  it.each([
    '/api/enterprise/v1/users',
    '/api/enterprise/v1/users?x=/1/me',
    '/api/enterprise/v1/users/7',
    '/api/enterprise/v1/users/7/',
    '/api/enterprise/v1/users/../v1/me',
    '/api/enterprise/v1/users/%2e%2e/me',
    '/api/enterprise/v1/users/7%2Fme',
    '/api/enterprise/v1/users/07/me',
    '/api/enterprise/v1/users/0/me',
    '/api/enterprise/v1/users/-7/me',
    '/api/enterprise/v1/users/7e2/me',
    '/api/enterprise/v1/users/99999999999/me',
    '/api/enterprise/v1/users/7/openapi.json',
    '/api/enterprise/v1/users/7/openapi.yaml',
    '/api/enterprise/v1/users/7/docs',
    '/api/enterprise/v1/users/7/docs/swagger-ui.css',
    '/api/enterprise/v1/webhooks',
    '/api/enterprise/v2/users/7/me',
    '/api/v1/users/7/me',
  ])('leaves %s as it is (no member)', (url) => {
    const req = request(url);
    expect(rewriteEnterpriseUrl(req, url)).toBe(url);
    expect(enterpriseMemberOf(req)).toBeUndefined();
  });
});
