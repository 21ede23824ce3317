import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestBrowser, launchBrowser } from '../support/browser';
import { startApi } from '../support/test-app';

/**
 * Swagger UI under its Content-Security-Policy, in headless Chromium: it must load the document and
 * draw the operations, and the browser must refuse nothing (a CSP violation is a console error).
 */
describe('Hardening: Swagger UI runs under its security headers (e2e, Chromium)', () => {
  jest.setTimeout(60_000);
  let app: NestFastifyApplication;
  let url: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    app = await startApi();
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await app.close();
  });

  it('draws the operations of the OpenAPI document, with no violation', async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const res = await page.goto(`${url}/api/v1/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/me' }).first().waitFor();
    expect(problems).toEqual([]);
  });
});
