import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type BrowserContext, chromium } from 'playwright-core';
import { startApi } from '../support/test-app';

/** Debian's Chromium (as the OAuth browser test): no browser download. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Swagger UI under its Content-Security-Policy, in headless Chromium: it must load the document and
 * draw the operations, and the browser must refuse nothing (a CSP violation is a console error).
 */
describe('Hardening: Swagger UI runs under its security headers (e2e, Chromium)', () => {
  jest.setTimeout(60_000);
  let app: NestFastifyApplication;
  let url: string;
  let userDataDir: string;
  let browser: BrowserContext;

  beforeAll(async () => {
    app = await startApi();
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    userDataDir = await mkdtemp(join(tmpdir(), 'docs-chromium-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
    await app.close();
  });

  it('draws the operations of the OpenAPI document, with no violation', async () => {
    const page = await browser.newPage();
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
