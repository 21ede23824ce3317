import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { listen } from '../oauth/partner';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** What the reference's official npm client answers: the `request` library's callback. */
interface Answer {
  status: number;
  /** The Content-Type the client sent. */
  sentType: string | undefined;
  // The parsed JSON body: compared whole with toEqual.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  qs?: Record<string, unknown>;
}

interface AcuityClient {
  request(
    path: string,
    options: RequestOptions,
    callback: (
      error: Error | null,
      response: { statusCode: number; request: { headers: Record<string, string> } },
      body: unknown,
    ) => void,
  ): void;
}

// The client ships as CommonJS without types: its documented entry point, `basic()`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Acuity = require('acuityscheduling') as {
  basic(config: { userId: number; apiKey: string; base?: string }): AcuityClient;
};

/**
 * The reference service's official npm client (`acuityscheduling` 0.1.9), configured with nothing
 * but this service's base URL and an account's credentials, over a real socket: its documented
 * calls work unchanged.
 */
describe('The reference service’s npm client against this service (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let api: ApiClient;
  let acuity: AcuityClient;

  beforeAll(async () => {
    app = await startApi();
    const base = await listen(app);
    account = await createAccount(app);
    api = apiClient(app, account);
    acuity = Acuity.basic({ userId: account.id, apiKey: account.apiKey, base });
  });

  afterAll(() => app.close());

  function call(path: string, options: RequestOptions = {}): Promise<Answer> {
    return new Promise((resolve, reject) =>
      acuity.request(path, options, (error, response, body) =>
        error
          ? reject(error)
          : resolve({
              status: response.statusCode,
              sentType: response.request.headers['content-type'],
              body,
            }),
      ),
    );
  }

  it('books, records a payment and reads the payments of an appointment', async () => {
    const calendar = await createCalendar(api, { timezone: 'America/New_York' });
    const type = await createAppointmentType(api, { price: '45.00', calendarIDs: [calendar] });
    const booked = await call('/appointments', {
      method: 'POST',
      qs: { admin: true },
      body: {
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: '2030-06-03T10:00:00-0400',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
      },
    });
    expect(booked).toMatchObject({ status: 200, body: { paid: 'no', amountPaid: '0.00' } });
    const id = (booked.body as { id: number }).id;

    const recorded = await call(`/appointments/${id}/payments`, {
      method: 'POST',
      body: { amount: '45.00', processor: 'card-terminal', transactionID: 'ch_ref_1' },
    });
    expect(recorded).toEqual({
      status: 200,
      sentType: 'application/json',
      body: {
        transactionID: 'ch_ref_1',
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]00$/),
        processor: 'card-terminal',
        amount: '45.00',
        reason: '',
      },
    });

    expect(await call(`/appointments/${id}/payments`)).toEqual({
      status: 200,
      sentType: undefined,
      body: [recorded.body],
    });
    expect(await call(`/appointments/${id}`)).toMatchObject({
      status: 200,
      body: { id, paid: 'yes', amountPaid: '45.00' },
    });
    // Its errors arrive in the envelope it knows.
    expect(await call('/appointments/2147483000/payments')).toEqual({
      status: 404,
      sentType: undefined,
      body: { status_code: 404, error: 'not_found', message: 'Not Found' },
    });
  });

  it("sends the read calls' parameters as the reference documents them", async () => {
    const calendar = await createCalendar(api, { timezone: 'America/New_York' });
    const form = await api.post('/forms', {
      name: 'Intake',
      fields: [{ name: 'Date of birth', type: 'textbox' }],
    });
    const field = (form.body as { fields: { id: number }[] }).fields[0].id;
    const type = await createAppointmentType(api, {
      calendarIDs: [calendar],
      formIDs: [(form.body as { id: number }).id],
    });
    const booked: number[] = [];
    for (const [datetime, fields] of [
      ['2030-07-01T09:00', [{ id: field, value: '1990-01-01' }]],
      ['2030-07-08T09:00', []],
    ] as const) {
      const res = await call('/appointments', {
        method: 'POST',
        qs: { admin: 'true' },
        body: {
          appointmentTypeID: type,
          calendarID: calendar,
          datetime,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          fields,
        },
      });
      booked.push((res.body as { id: number }).id);
    }

    const listed = await call('/appointments', {
      qs: { calendarID: calendar, minDate: '2030-07-01', maxDate: '2030-07-08', direction: 'ASC' },
    });
    expect((listed.body as { id: number }[]).map((a) => a.id)).toEqual(booked);
    const past = await call(`/appointments/${booked[1]}`, { qs: { pastFormAnswers: true } });
    expect(past.body).toMatchObject({
      forms: [{ name: 'Intake', values: [{ fieldID: field, value: '1990-01-01' }] }],
    });

    const yoga = await createAppointmentType(api, {
      type: 'class',
      classSize: 4,
      private: true,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
    const session = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: '2030-07-02T07:00',
    });
    expect(session.status).toBe(200);
    const classes = async (qs: Record<string, unknown>) =>
      (await call('/availability/classes', { qs: { month: '2030-07', ...qs } })).body as unknown[];
    expect(await classes({})).toEqual([]);
    expect(await classes({ includePrivate: true })).toMatchObject([
      { appointmentTypeID: yoga, time: '2030-07-02T07:00:00-0400', slotsAvailable: 4 },
    ]);

    const typeRead = await call(`/appointment-types/${yoga}`);
    expect(typeRead).toMatchObject({
      status: 200,
      body: { id: yoga, type: 'class', private: true },
    });
  });
});
