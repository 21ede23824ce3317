import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import type { Page } from 'playwright-core';
import { type ApiClient, apiClient } from '../support/api-client';
import {
  createAddon,
  createAppointmentType,
  createCalendar,
  createForm,
} from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi, startWorker } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { SmtpSink } from '../notifications/sinks';

export const ZONE = 'America/New_York';
const SMTP_CREDENTIALS = { user: 'mailer', password: 'smtp-secret' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PagesServer {
  app: NestFastifyApplication;
  worker?: TestingModule;
  smtp?: SmtpSink;
  /** `http://127.0.0.1:port`: the API's PUBLIC_URL, so that e-mailed links open here. */
  url: string;
  close(): Promise<void>;
}

/** The API listening on 127.0.0.1 (its PUBLIC_URL), and with `mail` a worker sending to a sink. */
export async function startPagesServer(options: { mail?: boolean } = {}): Promise<PagesServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = testConfig();
  const smtp = options.mail ? await SmtpSink.start(SMTP_CREDENTIALS) : undefined;
  const config = base.with({
    http: { ...base.http, publicUrl: url },
    queue: { prefix: `${base.queue.prefix}:pages-${port}` },
    ...(smtp
      ? {
          notifications: {
            ...base.notifications,
            mail: smtp.mailConfig(),
          },
        }
      : {}),
  });
  const app = await startApi({ config });
  await app.listen(port, '127.0.0.1');
  const worker = smtp ? await startWorker(config) : undefined;
  return {
    app,
    worker,
    smtp,
    url,
    close: async () => {
      await worker?.close();
      await app.close();
      await smtp?.close();
    },
  };
}

export interface Shop {
  account: TestAccount;
  api: ApiClient;
  calendar: number;
  type: number;
  addon: number;
  form: { id: number; note: number; size: number; consent: number };
  coupon: string;
}

let sequence = 0;

/**
 * An account with a calendar open Mondays 09:00–17:00 (New York), a 30-minute type with an addon,
 * an intake form (a text answer, a dropdown, a required consent checkbox) and a 50% coupon.
 */
export async function openShop(app: NestFastifyApplication, name = 'Test Clinic'): Promise<Shop> {
  const account = await createAccount(app, { name, timezone: ZONE });
  const api = apiClient(app, account);
  const calendar = await createCalendar(api, {
    name: 'Dr. Smith',
    timezone: ZONE,
    location: '12 Main St, Springfield',
    hours: { monday: [{ start: '09:00', end: '17:00' }] },
  });
  const addon = await createAddon(api, { name: 'Scalp massage', duration: 15, price: '10.00' });
  const form = await createForm(api, {
    name: 'Intake',
    fields: [
      { name: 'What brings you in?', type: 'textbox' },
      { name: 'T-shirt size', type: 'dropdown', options: ['S', 'M', 'L'] },
      { name: 'I accept the terms', type: 'checkbox', required: true },
    ],
  });
  const fields = (await api.get(`/forms/${form}`)).body as { fields: { id: number }[] };
  const type = await createAppointmentType(api, {
    name: 'Consultation',
    duration: 30,
    price: '40.00',
    calendarIDs: [calendar],
    addonIDs: [addon],
    formIDs: [form],
    maxDaysInAdvance: 3650,
  });
  const coupon = `HALF${process.pid}${++sequence}`;
  const made = await api.post('/coupons', {
    code: coupon,
    name: 'Half off',
    discountType: 'percentage',
    discountAmount: 50,
    appointmentTypeIDs: [type],
  });
  if (made.status !== 200) throw new Error(`coupon: ${JSON.stringify(made.body)}`);
  const [note, size, consent] = fields.fields.map((f) => f.id);
  return { account, api, calendar, type, addon, form: { id: form, note, size, consent }, coupon };
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2.x A and AA rules (2.2 included) on the page as it is: the violations' ids and
 * targets. Run through the DevTools protocol, so the page's CSP (no inline script) is untouched.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<AxeResult> } }).axe;
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
}

interface AxeResult {
  violations: { id: string; nodes: { target: string[] }[] }[];
}

/** A recipient of this run alone. */
export const emailOf = (prefix = 'client') => `${prefix}-${process.pid}-${++sequence}@example.test`;

/**
 * Ada's appointment on the shop's type at `datetime` (a Monday in its hours), booked through the
 * API with the form's required consent: its id, confirmation page and that page's path.
 */
export async function bookThroughApi(
  s: Shop,
  datetime = '2030-06-03T10:00:00-0400',
  email = emailOf('http'),
): Promise<{ id: number; confirmationPage: string; page: string }> {
  const res = await s.api.post('/appointments', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    appointmentTypeID: s.type,
    datetime,
    fields: [{ id: s.form.consent, value: 'yes' }],
  });
  expect(res.status).toBe(200);
  const { id, confirmationPage } = res.body as { id: number; confirmationPage: string };
  return { id, confirmationPage, page: new URL(confirmationPage).pathname };
}

/**
 * What a page reports going wrong, as a list the test expects empty: console errors and warnings
 * (a CSP violation among them) and uncaught exceptions; an HTTP error status the test asked for is
 * not one.
 */
export function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (m.text().startsWith('Failed to load resource: the server responded with a status')) return;
    problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return problems;
}
