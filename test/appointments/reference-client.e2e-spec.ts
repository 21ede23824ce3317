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
});
