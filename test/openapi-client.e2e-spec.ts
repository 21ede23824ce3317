import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import createClient, { type Client } from 'openapi-fetch';
import { openApiDocumentOf } from '../src/app/openapi-document';
import type { paths } from './generated/v1';
import { seedDemo } from '../src/app/demo.cli';
import { type TestAccount, basicAuth, createAccount, startApi } from './support/test-app';

interface Example {
  examples: Record<string, { value: unknown }>;
}

/*
 * A client generated from the document works without reading the code (issue 28): the types of
 * test/generated/v1.d.ts come from openapi-typescript (`npm run openapi:types`), and openapi-fetch
 * sends typed requests with them to the API listening on a port. If the document changes, the
 * committed types must be regenerated: the first test says so.
 */

const GENERATED = join(__dirname, 'generated', 'v1.d.ts');

describe('A client generated from the OpenAPI document (e2e)', () => {
  let app: NestFastifyApplication;
  let client: Client<paths>;
  let baseUrl: string;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startApi();
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${port}`;
    account = await createAccount(app);
    client = createClient<paths>({
      baseUrl,
      headers: { authorization: account.authorization },
    });
  });

  afterAll(() => app.close());

  it('is generated from the document the API serves now (npm run openapi:types)', async () => {
    // openapi-typescript's command line, as `npm run openapi:types` runs it (the package is ESM).
    const directory = mkdtempSync(join(tmpdir(), 'openapi-types-'));
    try {
      writeFileSync(join(directory, 'openapi.json'), JSON.stringify(openApiDocumentOf(app)));
      await promisify(execFile)(
        process.execPath,
        [GENERATOR, join(directory, 'openapi.json'), '-o', join(directory, 'v1.d.ts')],
        { timeout: 60_000 },
      );
      // Not toBe: a difference in 400 kB would print both; say what to run instead.
      const current =
        readFileSync(join(directory, 'v1.d.ts'), 'utf8') === readFileSync(GENERATED, 'utf8');
      if (!current)
        throw new Error('test/generated/v1.d.ts is stale: run `npm run openapi:types`.');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('books, reschedules and cancels an appointment, typed end to end', async () => {
    const calendar = await client.POST('/api/v1/calendars', {
      body: {
        name: 'Alex',
        timezone: 'America/New_York',
        hours: { monday: [{ start: '09:00', end: '17:00' }] },
      },
    });
    expect(calendar.response.status).toBe(200);
    const calendarID = calendar.data!.id;
    const type = await client.POST('/api/v1/appointment-types', {
      body: {
        name: 'Haircut',
        duration: 45,
        price: '40.00',
        slotInterval: 15,
        calendarIDs: [calendarID],
        maxDaysInAdvance: 3650,
      },
    });
    expect(type.response.status).toBe(200);
    const appointmentTypeID = type.data!.id;

    const booked = await client.POST('/api/v1/appointments', {
      params: { query: { noEmail: true } },
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        appointmentTypeID,
        datetime: '2030-06-03T10:00',
      },
    });
    expect(booked.error).toBeUndefined();
    const appointment = booked.data!;
    // Typed fields: `time` is a string, `calendarID` a number, `canceled` a boolean.
    const { time, date, calendarID: on, canceled: off } = appointment;
    expect({ time, date, on, off }).toEqual({
      time: '10:00am',
      date: 'June 3, 2030',
      on: calendarID,
      off: false,
    });

    const moved = await client.PUT('/api/v1/appointments/{id}/reschedule', {
      params: { path: { id: appointment.id }, query: { noEmail: true } },
      body: { datetime: '2030-06-03T14:30' },
    });
    expect(moved.error).toBeUndefined();
    expect(moved.data!.datetime).toBe('2030-06-03T14:30:00-0400');

    const refused = await client.PUT('/api/v1/appointments/{id}/reschedule', {
      params: { path: { id: appointment.id } },
      body: { datetime: '2030-06-03T20:00' },
    });
    expect(refused.response.status).toBe(400);
    // The error envelope is typed with the codes the operation lists.
    expect(refused.error?.error).toBe('not_available');

    const canceled = await client.PUT('/api/v1/appointments/{id}/cancel', {
      params: { path: { id: appointment.id }, query: { noEmail: true } },
      body: {},
    });
    expect(canceled.error).toBeUndefined();
    expect(canceled.data!.canceled).toBe(true);

    const read = await client.GET('/api/v1/appointments/{id}', {
      params: { path: { id: appointment.id } },
    });
    expect(read.data).toEqual(canceled.data);
  });

  it("books the demo account as Swagger UI's example of POST /appointments says", async () => {
    const demo = await seedDemo(app, `demo-${randomUUID()}@example.test`);
    const document = openApiDocumentOf(app) as unknown as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, Example> } }>>;
    };
    const example = document.paths['/api/v1/appointments'].post.requestBody.content[
      'application/json'
    ].examples.demo.value as Record<string, unknown>;
    // The example names the ids of a database the demo was seeded on first; here it was not.
    const api = createClient<paths>({
      baseUrl,
      headers: { authorization: basicAuth(demo.id, demo.apiKey) },
    });
    const types = (await api.GET('/api/v1/appointment-types')).data!;
    const calendars = (await api.GET('/api/v1/calendars')).data!;
    const forms = (await api.GET('/api/v1/forms')).data!;
    const questions = forms[0].fields.map((field) => field.id);
    expect([example.appointmentTypeID, example.calendarID]).toEqual([1, 1]);
    expect(example.fields).toEqual([
      { id: 1, value: 'Straight' },
      { id: 3, value: 'yes' },
    ]);
    const booked = await api.POST('/api/v1/appointments', {
      params: { query: { noEmail: true } },
      body: {
        ...(example as { firstName: string; lastName: string; datetime: string }),
        appointmentTypeID: types.find((t) => t.name === 'Haircut')!.id,
        calendarID: calendars.find((c) => c.name === 'Alex (New York)')!.id,
        fields: [
          { id: questions[0], value: 'Straight' },
          { id: questions[2], value: 'yes' },
        ],
      },
    });
    expect(booked.error).toBeUndefined();
    expect(booked.data!.datetime.slice(0, 16)).toBe(example.datetime);
  });

  it('gets an id that exists nowhere refused with a typed 404', async () => {
    const stranger = createClient<paths>({
      baseUrl,
      headers: { authorization: (await createAccount(app)).authorization },
    });
    const res = await stranger.GET('/api/v1/appointments/{id}', {
      params: { path: { id: 2147483647 } },
    });
    expect(res.response.status).toBe(404);
    expect(res.error).toEqual({
      status_code: 404,
      error: 'not_found',
      message: expect.any(String),
    });
  });
});

const GENERATOR = join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
