import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

interface Form {
  id: number;
  fields: { id: number; name: string }[];
}

interface AppointmentBody {
  id: number;
  forms: { id: number; name: string; values: { fieldID: number; value: string }[] }[];
  formsText: string;
}

/**
 * `GET /appointments/{id}?pastFormAnswers=true`: the questions an appointment left open show what
 * its client answered last on an earlier appointment.
 */
describe('GET /appointments/{id}?pastFormAnswers=true (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let stranger: ApiClient;
  let calendar: number;
  let type: number;
  let intake: Form;
  let birth: number;
  let allergies: number;
  let referral: number;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
    stranger = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api, { timezone: 'America/New_York' });
    const created = await api.post('/forms', {
      name: 'Intake',
      fields: [
        { name: 'Date of birth', type: 'textbox' },
        { name: 'Allergies', type: 'textbox' },
        { name: 'Referral', type: 'textbox' },
      ],
    });
    intake = created.body as Form;
    [birth, allergies, referral] = intake.fields.map((f) => f.id);
    type = await createAppointmentType(api, { calendarIDs: [calendar], formIDs: [intake.id] });
  });

  afterAll(() => app.close());

  async function book(
    datetime: string,
    answers: Record<number, string>,
    email = 'ada@example.com',
  ) {
    const res = await api.post('/appointments?admin=true', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime,
      fields: Object.entries(answers).map(([id, value]) => ({ id: Number(id), value })),
    });
    if (res.status !== 200) throw new Error(`booking → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as AppointmentBody;
  }

  const read = async (id: number, query = '') =>
    (await api.get(`/appointments/${id}${query}`)).body as AppointmentBody;

  /** Each answer shown: field → value. */
  const answers = (a: AppointmentBody) =>
    Object.fromEntries(a.forms.flatMap((f) => f.values.map((v) => [v.fieldID, v.value])));

  it("fills the open questions with the client's latest earlier answers, in the form's order", async () => {
    const first = await book('2030-06-03T10:00', { [birth]: '1990-01-01', [allergies]: 'None' });
    const second = await book('2030-06-10T10:00', { [allergies]: 'Pollen' }, 'ADA@example.com');
    // Another client's answers, earlier still, are never shown.
    await book(
      '2030-06-01T10:00',
      { [birth]: '1985-05-05', [referral]: 'Web' },
      'grace@example.com',
    );
    const third = await book('2030-06-17T10:00', { [referral]: 'Radio' });

    expect(answers(await read(third.id))).toEqual({ [referral]: 'Radio' });
    const filled = await read(third.id, '?pastFormAnswers=true');
    expect(filled.forms).toEqual([
      {
        id: intake.id,
        name: 'Intake',
        values: [
          { id: birth, fieldID: birth, name: 'Date of birth', value: '1990-01-01' },
          { id: allergies, fieldID: allergies, name: 'Allergies', value: 'Pollen' },
          { id: referral, fieldID: referral, name: 'Referral', value: 'Radio' },
        ],
      },
    ]);
    expect(filled.formsText).toBe(
      'Intake\n======\nDate of birth: 1990-01-01\nAllergies: Pollen\nReferral: Radio',
    );
    // Everything else is the appointment as it is.
    expect({ ...filled, forms: [], formsText: '' }).toEqual({
      ...(await read(third.id)),
      forms: [],
      formsText: '',
    });

    // Only what came before: the first has nothing earlier, the second takes the first's birth date
    // and keeps its own allergies; none takes a later answer (the third's referral).
    expect(answers(await read(first.id, '?pastFormAnswers=true'))).toEqual({
      [birth]: '1990-01-01',
      [allergies]: 'None',
    });
    expect(answers(await read(second.id, '?pastFormAnswers=true'))).toEqual({
      [birth]: '1990-01-01',
      [allergies]: 'Pollen',
    });
  });

  it("counts a canceled earlier appointment's answers: the client gave them", async () => {
    const email = 'linus@example.com';
    const canceled = await book('2030-07-01T10:00', { [birth]: '1970-12-28' }, email);
    expect((await api.put(`/appointments/${canceled.id}/cancel?admin=true`, {})).status).toBe(200);
    const later = await book('2030-07-08T10:00', {}, email);
    expect(answers(await read(later.id, '?pastFormAnswers=true'))).toEqual({
      [birth]: '1970-12-28',
    });
    expect(answers(await read(later.id, '?pastFormAnswers=false'))).toEqual({});
    expect(answers(await read(later.id, '?pastFormAnswers='))).toEqual({});
  });

  it('refuses a value that is not a boolean; another account is 403, none 404', async () => {
    const a = await book('2030-08-05T10:00', {}, 'someone@example.com');
    expect(await api.get(`/appointments/${a.id}?pastFormAnswers=maybe`)).toMatchObject(
      apiError(400, 'invalid_past_form_answers', 'Invalid "pastFormAnswers" attribute value.'),
    );
    expect(await stranger.get(`/appointments/${a.id}?pastFormAnswers=true`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await api.get('/appointments/2147483000?pastFormAnswers=true')).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
  });
});
