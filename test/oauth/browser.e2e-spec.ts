import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { BrowserContext, Page } from 'playwright-core';
import { type TestBrowser, launchBrowser } from '../support/browser';
import { startApi } from '../support/test-app';
import { type OwnerAccount, ownerAccount } from './oauth-fixtures';
import { type Partner, listen, startPartner } from './partner';

/** Set to a folder to keep screenshots of the pages (to look at them). */
const SCREENSHOTS = process.env.OAUTH_SCREENSHOTS;

/**
 * The pages as a person uses them, in headless Chromium with JavaScript off (the pages have none
 * and must not need any): from the partner app's "connect" through sign-in and consent to the
 * app's redirect URI, where the app (openid-client) exchanges the code and calls /api/v1/me.
 * Anything the browser refuses (a CSP violation: the inline style's hash, the form-action of the
 * consent's redirect) is an error on its console, and fails the test.
 */
describe('OAuth 2.0 pages in headless Chromium (e2e)', () => {
  jest.setTimeout(60_000);
  let app: NestFastifyApplication;
  let authUrl: string;
  let partner: Partner;
  let chromium: TestBrowser;
  let browser: BrowserContext;
  let owner: OwnerAccount;

  beforeAll(async () => {
    app = await startApi();
    authUrl = await listen(app);
    partner = await startPartner(app, authUrl, 'post');
    chromium = await launchBrowser({ javaScriptEnabled: false });
    browser = chromium.context;
  }, 90_000); // the partner app (ts-node) and Chromium start here
  afterAll(async () => {
    await chromium?.close();
    await partner?.stop();
    await app.close();
  });
  beforeEach(async () => {
    owner = await ownerAccount(app);
    await browser.clearCookies();
  });

  /** A page that records what the browser complains about. */
  async function openPage(): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return;
      // Chromium logs every document or favicon answered with 4xx/5xx; the tests check statuses.
      if (message.text().startsWith('Failed to load resource: the server responded with a status'))
        return;
      problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { page, problems };
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS)
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async function signIn(page: Page, password: string): Promise<void> {
    await page.getByLabel('E-mail address').fill(owner.email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /**
   * Signs in and waits for the consent page. The sign-in page is at /oauth2/authorize already, so
   * the URL cannot tell the new page has come: the next document's load can (reading the title
   * while the POST was in flight read "").
   */
  async function signedIn(page: Page, password: string): Promise<void> {
    await Promise.all([page.waitForEvent('load'), signIn(page, password)]);
  }

  it('sign in, consent, land on the redirect with code and state; the app exchanges it and calls GET /api/v1/me', async () => {
    const { page, problems } = await openPage();
    await page.goto(partner.url('/connect'));
    expect(page.url().startsWith(`${authUrl}/oauth2/authorize?`)).toBe(true);
    const sentState = new URL(page.url()).searchParams.get('state');
    expect(await page.title()).toBe('Sign in to connect Partner App');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await screenshot(page, 'login');

    await signedIn(page, owner.password);
    expect(await page.title()).toBe('Allow Partner App to access your account?');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Allow Partner App to access your account?',
    );
    await screenshot(page, 'consent');

    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${partner.client.redirectUri}?`)),
      page.getByRole('button', { name: 'Allow' }).click(),
    ]);
    const landed = new URL(page.url());
    expect([...landed.searchParams.keys()]).toEqual(['code', 'state']);
    expect(landed.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
    expect(landed.searchParams.get('state')).toBe(sentState);

    const result = JSON.parse((await page.locator('#result').textContent()) ?? 'null');
    expect(result).toMatchObject({
      callbackUrl: landed.href,
      state: sentState,
      tokenType: 'bearer',
      me: { status: 200, body: { id: owner.id, email: owner.email, name: owner.name } },
    });
    expect(problems).toEqual([]);
  });

  it('a wrong password shows the error by the form; then signing in works', async () => {
    const { page, problems } = await openPage();
    await page.goto(partner.url('/connect'));
    await signIn(page, 'not the password');
    expect(await page.getByRole('alert').textContent()).toBe(
      'The e-mail address or password is incorrect.',
    );
    expect(await page.getByLabel('E-mail address').inputValue()).toBe(owner.email);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'login-error');

    await signedIn(page, owner.password);
    expect(await page.title()).toBe('Allow Partner App to access your account?');
    expect(problems).toEqual([]);
  });

  it('Deny lands on the redirect with error=access_denied and the state', async () => {
    const { page, problems } = await openPage();
    await page.goto(partner.url('/connect'));
    const sentState = new URL(page.url()).searchParams.get('state');
    await signedIn(page, owner.password);
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${partner.client.redirectUri}?`)),
      page.getByRole('button', { name: 'Deny' }).click(),
    ]);
    const landed = new URL(page.url());
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied access.',
      state: sentState,
    });
    expect(problems).toEqual([]);
  });

  it('an unregistered redirect URI stays on an error page', async () => {
    const { page } = await openPage();
    const query = new URLSearchParams({
      response_type: 'code',
      scope: 'api-v1',
      client_id: partner.client.clientId,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      state: 's',
    });
    const res = await page.goto(`${authUrl}/oauth2/authorize?${query.toString()}`);
    expect(res?.status()).toBe(400);
    expect(page.url().startsWith(`${authUrl}/oauth2/authorize?`)).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Invalid redirect URI',
    );
    await screenshot(page, 'error');
  });
});
