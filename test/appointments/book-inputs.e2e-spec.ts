import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

const INVALID_EMAIL = apiError(400, 'invalid_email', 'Invalid "email" attribute value.');

/** E-mails that are not one address: a list, a header or a group once a mailer parses them. */
const NOT_ONE_ADDRESS: [string, string][] = [
  ['a list', 'a@x.test,b@x.test'],
  ['a list with spaces', 'a@x.test, b@x.test, c@x.test'],
  ['a list on two lines', 'a@x.test\r\nb@x.test'],
  ['a header after CR/LF', 'a@x.test\r\nBcc: b@x.test'],
  ['a group', 'a: b@x.test, c@y.test;'],
  ['a display name', 'Ada <a@x.test>'],
  ['a quoted local part holding a list', '"a@x.test,b"@y.test'],
  ['a bidi override', 'a\u202Eb@x.test'],
];

/**
 * Issue 20's characters, as `U+XXXX`: a one-line attribute takes none of them, a multi-line one
 * none but CR, LF and TAB. (NUL, BEL, ESC, DEL, C1 NEL and CSI, line and paragraph separators, a
 * right-to-left override, bidi isolates; CR, LF, TAB.)
 */
const CONTROLS = [
  ...'\u0000\u0007\u001B\u007F\u0085\u009B\u2028\u2029\u202E\u2066\u2069\r\n\t',
].map((c) => [`U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, c] as const);
const multiLineTakes = (c: string) => '\r\n\t'.includes(c);

/** Attributes of the wrong JSON type get the contract's codes, in the contract's order. */
describe('POST /appointments with null and non-text attributes (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let type: number;
  let calendar: number;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api, {
      timezone: 'America/New_York',
      hours: { monday: [{ start: '09:00', end: '17:00' }] },
    });
    type = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
  });

  afterAll(() => app.close());

  const base = () => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    appointmentTypeID: type,
    calendarID: calendar,
    datetime: '2030-06-03T10:00',
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a null firstName',
      { firstName: null },
      'required_first_name',
      'Attribute "firstName" is required.',
    ],
    [
      'a numeric lastName',
      { lastName: 7 },
      'required_last_name',
      'Attribute "lastName" is required.',
    ],
    ['a null email', { email: null }, 'required_email', 'Attribute "email" is required.'],
    ['a numeric email', { email: 5 }, 'invalid_email', 'Invalid "email" attribute value.'],
    ['a numeric timezone', { timezone: 5 }, 'invalid_timezone', 'Invalid timezone "5".'],
    [
      'a numeric certificate',
      { certificate: 5 },
      'invalid_certificate',
      'The certificate "5" is invalid.',
    ],
    [
      'a numeric email and no firstName',
      { email: 5, firstName: undefined },
      'required_first_name',
      'Attribute "firstName" is required.',
    ],
  ])('refuses %s', async (_, change, error, message) => {
    expect(await api.post('/appointments', { ...base(), ...change })).toMatchObject(
      apiError(400, error, message),
    );
  });

  it('stores a zone by its canonical name', async () => {
    const res = await api.post('/appointments', {
      ...base(),
      datetime: '2030-06-03T11:00',
      timezone: 'europe/paris',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { timezone: 'Europe/Paris', datetime: '2030-06-03T17:00:00+0200', time: '5:00pm' },
    });
  });

  /**
   * Issue 20: the client's details of an appointment are checked whoever books or edits it. The
   * e-mail is one address (an admin may leave it empty); names and phone are one line without
   * control or bidi characters, the phone holds phone characters; an admin's notes and a cancel
   * note keep their line breaks but no other control. A refused request stores nothing.
   */
  describe('client details are one address and one line, admins included (issue 20)', () => {
    /** The Monday of these bookings (a week after the others of this file). */
    const MONDAY = '2030-06-10';
    let slot = 0;

    /** A booking body at 8:00, before the calendar opens: only an admin may book it. */
    const booking = (changes: Record<string, unknown> = {}) => ({
      ...base(),
      email: 'ada@example.test',
      datetime: `${MONDAY}T08:00`,
      ...changes,
    });

    /** A booking body at the next free half hour of the Monday (9:00 to 17:00): a client's. */
    function clientBooking(changes: Record<string, unknown> = {}) {
      const minutes = 9 * 60 + 30 * slot++;
      const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      return booking({ datetime: `${MONDAY}T${time}`, ...changes });
    }

    /** The account's appointments as the API lists them: a refused request changes none. */
    async function stored(): Promise<unknown> {
      return (await api.get('/appointments?showall=true&max=1000')).body;
    }

    async function bookedAsAdmin(changes: Record<string, unknown> = {}): Promise<number> {
      const res = await api.post('/appointments?admin=true', booking(changes));
      expect({ status: res.status, body: res.status === 200 ? 'booked' : res.body }).toEqual({
        status: 200,
        body: 'booked',
      });
      return (res.body as { id: number }).id;
    }

    describe('the e-mail', () => {
      it.each(NOT_ONE_ADDRESS)(
        'POST ?admin=true with %s: 400 invalid_email, nothing stored',
        async (_what, email) => {
          const before = await stored();
          expect(await api.post('/appointments?admin=true', booking({ email }))).toMatchObject(
            INVALID_EMAIL,
          );
          expect(await api.post('/appointments', booking({ email }))).toMatchObject(INVALID_EMAIL);
          expect(await stored()).toEqual(before);
        },
      );

      it('an admin may book without an e-mail, or with one address (stored lower-cased)', async () => {
        for (const email of [undefined, '', '  ']) {
          const id = await bookedAsAdmin({ email });
          expect((await api.get(`/appointments/${id}`)).body).toMatchObject({ email: '' });
        }
        const id = await bookedAsAdmin({ email: ' Ada.King+Lovelace@Example.TEST ' });
        expect((await api.get(`/appointments/${id}`)).body).toMatchObject({
          email: 'ada.king+lovelace@example.test',
        });
      });

      it('PUT /appointments/{id}, admin or not: one address, or (admin only) empty', async () => {
        const id = await bookedAsAdmin();
        const before = await stored();
        for (const [, email] of NOT_ONE_ADDRESS) {
          for (const query of ['', '?admin=true'])
            expect(await api.put(`/appointments/${id}${query}`, { email })).toMatchObject(
              INVALID_EMAIL,
            );
        }
        expect(await stored()).toEqual(before);
        expect(await api.put(`/appointments/${id}`, { email: '' })).toMatchObject(
          apiError(400, 'required_email', 'Attribute "email" is required.'),
        );
        expect(await api.put(`/appointments/${id}?admin=true`, { email: '' })).toMatchObject({
          status: 200,
          body: { email: '' },
        });
        expect(await api.put(`/appointments/${id}`, { email: 'Grace@Example.test' })).toMatchObject(
          {
            status: 200,
            body: { email: 'grace@example.test' },
          },
        );
      });
    });

    describe('one-line attributes', () => {
      const cases = CONTROLS.flatMap(([what, chars]) =>
        (
          [
            ['firstName', 'invalid_first_name'],
            ['lastName', 'invalid_last_name'],
            ['phone', 'invalid_phone'],
          ] as const
        ).map(([attribute, code]) => [attribute, what, chars, code] as const),
      );

      it.each(cases)(
        '%s with %s: 400, booked by a client or an admin, or changed',
        async (attribute, _what, chars, code) => {
          const value = attribute === 'phone' ? `555${chars}0100` : `Ada${chars}Lovelace`;
          const refused = apiError(400, code, `Invalid "${attribute}" attribute value.`);
          const id = await bookedAsAdmin();
          const before = await stored();
          expect(await api.post('/appointments', booking({ [attribute]: value }))).toMatchObject(
            refused,
          );
          expect(
            await api.post('/appointments?admin=true', booking({ [attribute]: value })),
          ).toMatchObject(refused);
          for (const query of ['', '?admin=true'])
            expect(
              await api.put(`/appointments/${id}${query}`, { [attribute]: value }),
            ).toMatchObject(refused);
          expect(await stored()).toEqual(before);
        },
      );

      it('takes names from every script, apostrophes, hyphens and emoji, as sent (trimmed)', async () => {
        const names: [string, string][] = [
          ['Zoë', 'Ó Súilleabháin'],
          ['José María', "O'Brien-Smith"],
          ['王', '小明'],
          ['محمد', 'عبد الله'],
          ['Nguyễn', 'Thị Minh Khai'],
          ['Ada 😀', 'Family 👨\u200D👩\u200D👧'],
        ];
        for (const [firstName, lastName] of names) {
          const res = await api.post('/appointments', clientBooking({ firstName, lastName }));
          expect(res).toMatchObject({ status: 200, body: { firstName, lastName } });
        }
        const res = await api.post('/appointments', clientBooking({ firstName: ' Ada\r\n' }));
        expect(res).toMatchObject({ status: 200, body: { firstName: 'Ada' } });
      });

      it.each([
        '+1 (555) 010-0199',
        '+44 20 7946 0958',
        '555.010.0199',
        '+33 1 23 45 67 89',
        '555-0100 ext. 12',
        '555-0100 x12',
      ])('takes the phone %p', async (phone) => {
        expect(await api.post('/appointments?admin=true', booking({ phone }))).toMatchObject({
          status: 200,
          body: { phone },
        });
      });

      it.each(['call me', '555-0100; 555-0101', '555+0100', '+()', '５５５-０１００'])(
        'refuses the phone %p: invalid_phone',
        async (phone) => {
          expect(await api.post('/appointments', booking({ phone }))).toMatchObject(
            apiError(400, 'invalid_phone', 'Invalid "phone" attribute value.'),
          );
        },
      );

      it('a timezone with a control character is invalid_timezone', async () => {
        expect(
          await api.post('/appointments', booking({ timezone: 'America/New_York\u0000' })),
        ).toMatchObject(
          apiError(400, 'invalid_timezone', 'Invalid timezone "America/New_York\u0000".'),
        );
      });
    });

    describe('multi-line attributes: line breaks kept, other controls never', () => {
      it('an admin’s notes, booked or changed', async () => {
        const notes = 'Prefers mornings.\r\nAllergic to latex.\n\tAsk first.';
        const id = await bookedAsAdmin({ notes });
        expect((await api.get(`/appointments/${id}`)).body).toMatchObject({ notes });
        const before = await stored();
        for (const [, chars] of CONTROLS) {
          if (multiLineTakes(chars)) continue;
          const refused = apiError(400, 'invalid_notes', 'Invalid "notes" attribute value.');
          expect(
            await api.post('/appointments?admin=true', booking({ notes: `x${chars}y` })),
          ).toMatchObject(refused);
          expect(
            await api.put(`/appointments/${id}?admin=true`, { notes: `x${chars}y` }),
          ).toMatchObject(refused);
        }
        expect(await stored()).toEqual(before);
      });

      it('a cancel note', async () => {
        const id = await bookedAsAdmin();
        const before = await stored();
        for (const [, chars] of CONTROLS) {
          if (multiLineTakes(chars)) continue;
          expect(
            await api.put(`/appointments/${id}/cancel?admin=true`, { cancelNote: `x${chars}y` }),
          ).toMatchObject(
            apiError(400, 'invalid_cancel_note', 'Invalid "cancelNote" attribute value.'),
          );
        }
        expect(await stored()).toEqual(before);
        const cancelNote = 'Ill.\r\nWill call back.';
        expect(
          await api.put(`/appointments/${id}/cancel?admin=true`, { cancelNote }),
        ).toMatchObject({
          status: 200,
          body: { canceled: true },
        });
      });
    });
  });
});
