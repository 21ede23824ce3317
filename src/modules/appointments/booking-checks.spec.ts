import type { BookingInput } from './book-appointment.requests';
import { checkBookingRequest } from './booking-checks';
import { admin, client, error, refusal, request, valid } from './booking-checks.fixtures';

/*
 * The checks of POST /appointments that need no database, without one: each error of the contract
 * with its status, code and message as the client gets them, and which error wins when a body is
 * wrong in several ways. (Those that need the catalog, the forms or the labels, and their place
 * between these, are test/appointments/book-errors.e2e-spec.ts's.) The time checks are in
 * booking-checks.time.spec.ts.
 */

describe('checkBookingRequest', () => {
  it('gives the ids a valid booking names, in any shape clients send them', () => {
    expect(checkBookingRequest(valid, client)).toEqual({
      appointmentTypeID: 7,
      calendarID: undefined,
      addonIDs: [],
    });
    expect(
      checkBookingRequest(
        { ...valid, appointmentTypeID: '7', calendarID: '3', addonIDs: '1, 2' },
        client,
      ),
    ).toEqual({ appointmentTypeID: 7, calendarID: 3, addonIDs: [1, 2] });
    expect(checkBookingRequest({ ...valid, calendarID: null, addonIDs: [4] }, client)).toEqual({
      appointmentTypeID: 7,
      calendarID: undefined,
      addonIDs: [4],
    });
  });

  describe('each error of the contract', () => {
    it.each([undefined, '', '   '])('required_first_name when firstName is %p', (firstName) => {
      expect(refusal(request({ firstName }))).toEqual(
        error('required_first_name', 'Attribute "firstName" is required.'),
      );
    });

    it.each([undefined, '', ' '])('required_last_name when lastName is %p', (lastName) => {
      expect(refusal(request({ lastName }))).toEqual(
        error('required_last_name', 'Attribute "lastName" is required.'),
      );
    });

    it.each([
      ['firstName', 'invalid_first_name'],
      ['lastName', 'invalid_last_name'],
    ] as const)('%s longer than its column (255): %s, for an admin too', (attribute, code) => {
      const long = { [attribute]: 'x'.repeat(256) };
      const expected = error(code, `Invalid "${attribute}" attribute value.`);
      expect(refusal(request(long))).toEqual(expected);
      expect(refusal(request({ ...long, calendarID: 3 }, admin))).toEqual(expected);
      // Trimmed as stored: 255 characters and spaces fit.
      expect(() => request({ [attribute]: ` ${'x'.repeat(255)} ` })()).not.toThrow();
    });

    it.each([undefined, '', '  '])('required_email when email is %p (a client)', (email) => {
      expect(refusal(request({ email }))).toEqual(
        error('required_email', 'Attribute "email" is required.'),
      );
    });

    it.each(['nope', 'a@', '@b.co', 'a b@c.co'])('invalid_email for %p (a client)', (email) => {
      expect(refusal(request({ email }))).toEqual(
        error('invalid_email', 'Invalid "email" attribute value.'),
      );
    });

    it('an admin may leave the e-mail out or empty, but what is given is one address', () => {
      for (const email of [undefined, '', '  '])
        expect(() => request({ email, calendarID: 3 }, admin)()).not.toThrow();
      expect(() => request({ email: ' Ada@Example.com ', calendarID: 3 }, admin)()).not.toThrow();
      for (const email of ['nope', 'x'.repeat(255), `${'x'.repeat(250)}@example.test`])
        expect(refusal(request({ email, calendarID: 3 }, admin))).toEqual(
          error('invalid_email', 'Invalid "email" attribute value.'),
        );
    });

    // Issue 20: an admin's e-mail was stored unchecked and handed to the mailer as an address
    // list; control characters were stored (phones included).
    it.each([
      ['email', 'a list', 'a@x.test,b@x.test'],
      ['email', 'a list with a space', 'a@x.test, b@x.test'],
      ['email', 'a list on two lines (CR/LF)', 'a@x.test\r\nb@x.test'],
      ['email', 'a line feed', 'a@x.test\nBcc: b@x.test'],
      ['email', 'a group', 'a: b@x.test, c@y.test;'],
      ['email', 'a display name', 'Ada <a@x.test>'],
      ['email', 'a quoted local part holding a list', '"a@x.test,b"@y.test'],
      ['email', 'a quoted local part holding a control', '"a\u0001"@x.test'],
      ['email', 'a bidi override', 'a\u202Eb@x.test'],
      ['email', 'NUL', 'a\u0000@x.test'],
      ['phone', 'letters', 'call me'],
      ['phone', 'a line break', '555 0100\r\n'.repeat(2)],
      ['phone', 'NUL', '555\u00000100'],
      ['phone', 'a bidi override', '555\u202E0100'],
      ['phone', 'a plus inside', '555+0100'],
      ['phone', 'two pluses', '++1 555 0100'],
      ['phone', 'no digit', '+()-'],
      ['phone', 'a list', '555-0100, 555-0101'],
      ['phone', 'full-width digits', '５５５-０１００'],
      ['phone', 'an extension without digits', '555-0100 ext'],
    ])('invalid_%s for %s, for a client and for an admin', (attribute, _what, value) => {
      const invalid = error(`invalid_${attribute}`, `Invalid "${attribute}" attribute value.`);
      expect(refusal(request({ [attribute]: value }))).toEqual(invalid);
      expect(refusal(request({ [attribute]: value, calendarID: 3 }, admin))).toEqual(invalid);
    });

    it('required_phone when the account requires a phone (a client only)', () => {
      const strict = { admin: false, requirePhone: true };
      const required = error('required_phone', 'Attribute "phone" is required.');
      expect(refusal(request({}, strict))).toEqual(required);
      expect(refusal(request({ phone: ' ' }, strict))).toEqual(required);
      expect(() => request({ phone: '+1 555 0100' }, strict)()).not.toThrow();
      expect(() => request({}, client)()).not.toThrow();
      expect(() => request({ calendarID: 3 }, { admin: true, requirePhone: true })()).not.toThrow();
    });

    it('invalid_phone for a phone longer than its column (64)', () => {
      expect(refusal(request({ phone: '1'.repeat(65) }))).toEqual(
        error('invalid_phone', 'Invalid "phone" attribute value.'),
      );
    });

    // Issue 20: control and bidi characters were stored, and a CR/LF in a name became a line of
    // the client's e-mail.
    it.each([
      ['NUL', 'Ada\u0000'],
      ['CR/LF', 'Ada\r\nPlease pay at http://evil.example'],
      ['a line feed', 'Ada\nLovelace'],
      ['a tab', 'Ada\tLovelace'],
      ['a C1 control (NEL)', 'Ada\u0085Lovelace'],
      ['DEL', 'Ada\u007F'],
      ['a right-to-left override', 'Ada\u202Egnp.exe'],
      ['a left-to-right embedding', '\u202AAda'],
      ['a first-strong isolate', 'Ada\u2068x\u2069'],
      ['a line separator', 'Ada\u2028Lovelace'],
    ])(
      'a name with %s: invalid_first_name / invalid_last_name, for an admin too',
      (_what, name) => {
        for (const mode of [client, admin]) {
          const base = mode === admin ? { calendarID: 3 } : {};
          expect(refusal(request({ ...base, firstName: name }, mode))).toEqual(
            error('invalid_first_name', 'Invalid "firstName" attribute value.'),
          );
          expect(refusal(request({ ...base, lastName: name }, mode))).toEqual(
            error('invalid_last_name', 'Invalid "lastName" attribute value.'),
          );
        }
      },
    );

    it.each([
      'Zoë',
      'José María',
      "O'Brien",
      'Anne-Marie',
      '王小明',
      'Nguyễn Thị Minh Khai',
      'محمد',
      'שרה\u200F',
      'Ada 😀',
      'Family 👨\u200D👩\u200D👧',
      '  Ada  ',
      'Ada\n',
    ])('takes the name %p (it is stored trimmed)', (name) => {
      expect(() => request({ firstName: name, lastName: name })()).not.toThrow();
    });

    it.each([
      '+1 (555) 010-0199',
      '+44 20 7946 0958',
      '555.010.0199',
      '555-0100',
      '+33 1 23 45 67 89',
      '020/7946 0958',
      '555-0100 ext. 12',
      '555-0100 x12',
      '',
    ])('takes the phone %p', (phone) => {
      expect(() => request({ phone })()).not.toThrow();
    });

    it('an admin’s notes keep their line breaks, but never a control or a bidi override', () => {
      const notes = (value: string) => () =>
        checkBookingRequest({ ...valid, calendarID: 3, notes: value }, admin);
      expect(notes('Prefers mornings.\r\nAllergic to latex.\tAsk first.')).not.toThrow();
      for (const value of ['Late\u0000', 'x\u202Ey', 'a\u0085b', 'a\u2029b'])
        expect(refusal(notes(value))).toEqual(
          error('invalid_notes', 'Invalid "notes" attribute value.'),
        );
      // A client's notes are ignored (never stored): not checked.
      expect(() => request({ notes: 'x\u0000' })()).not.toThrow();
    });

    it.each([undefined, null, ''])(
      'required_appointment_type_id when appointmentTypeID is %p',
      (appointmentTypeID) => {
        expect(refusal(request({ appointmentTypeID }))).toEqual(
          error('required_appointment_type_id', 'The parameter "appointmentTypeID" is required.'),
        );
      },
    );

    it.each([undefined, null, ''])('required_datetime when datetime is %p', (datetime) => {
      expect(refusal(request({ datetime }))).toEqual(
        error('required_datetime', 'The parameter "datetime" is required.'),
      );
    });

    it.each([
      ['abc', 'abc'],
      [-3, '-3'],
      [1.5, '1.5'],
      [0, '0'],
      [[7], '[7]'],
    ])('invalid_appointment_type for %p, quoted as sent', (appointmentTypeID, shown) => {
      expect(refusal(request({ appointmentTypeID }))).toEqual(
        error('invalid_appointment_type', `The appointment type "${shown}" does not exist.`),
      );
    });

    it.each([
      ['abc', 'abc'],
      [0, '0'],
      [2 ** 31, '2147483648'],
    ])('invalid_calendar for %p', (calendarID, shown) => {
      expect(refusal(request({ calendarID }))).toEqual(
        error('invalid_calendar', `The calendar "${shown}" does not exist.`),
      );
    });

    it.each([undefined, null, ''])(
      'required_calendar_id for an admin when calendarID is %p',
      (id) => {
        expect(refusal(request({ calendarID: id }, admin))).toEqual(
          error('required_calendar_id', 'The parameter "calendarID" is required.'),
        );
      },
    );

    it.each([['x'], 'a,b', [1, 0], { a: 'x' }, true])('invalid_addon_ids for %p', (addonIDs) => {
      expect(refusal(request({ addonIDs }))).toEqual(
        error('invalid_addon_ids', 'Invalid "addonIDs" attribute value.'),
      );
    });
  });

  describe('precedence: a body wrong in several ways gets the first error', () => {
    /**
     * A valid body with every fault of `faults`; fixing them one by one, in order, each answer is
     * the error of the first fault left, and the body fixed whole passes.
     */
    function expectInOrder(
      mode: { admin: boolean; requirePhone: boolean },
      base: BookingInput,
      faults: [Partial<BookingInput>, string][],
    ): void {
      let body = faults.reduce<BookingInput>((wrong, [fault]) => ({ ...wrong, ...fault }), base);
      const answers: string[] = [];
      for (const [fault] of faults) {
        answers.push(refusal(() => checkBookingRequest(body, mode)).error);
        for (const key of Object.keys(fault) as (keyof BookingInput)[])
          body = { ...body, [key]: base[key] };
      }
      expect(answers).toEqual(faults.map(([, code]) => code));
      expect(() => checkBookingRequest(body, mode)).not.toThrow();
    }

    it('the client, then the type and datetime required', () => {
      expectInOrder({ admin: false, requirePhone: true }, { ...valid, phone: '555 0100' }, [
        [{ firstName: undefined }, 'required_first_name'],
        [{ lastName: 'x'.repeat(256) }, 'invalid_last_name'],
        [{ email: 'nope' }, 'invalid_email'],
        [{ phone: undefined }, 'required_phone'],
        [{ appointmentTypeID: undefined }, 'required_appointment_type_id'],
        [{ datetime: null }, 'required_datetime'],
      ]);
    });

    it('a missing datetime before ids that are no ids; then the type, calendar and addons', () => {
      expectInOrder(client, valid, [
        [{ datetime: '' }, 'required_datetime'],
        [{ appointmentTypeID: 'abc' }, 'invalid_appointment_type'],
        [{ calendarID: 'abc' }, 'invalid_calendar'],
        [{ addonIDs: ['x'] }, 'invalid_addon_ids'],
      ]);
    });

    it('both names required before either is too long', () => {
      expect(refusal(request({ firstName: 'x'.repeat(256), lastName: undefined })).error).toBe(
        'required_last_name',
      );
    });

    it('for an admin: the names, then the calendar required, then the addons', () => {
      expectInOrder(admin, { ...valid, calendarID: 3 }, [
        [{ lastName: '' }, 'required_last_name'],
        [{ email: 'x'.repeat(255) }, 'invalid_email'],
        [{ phone: '1'.repeat(65) }, 'invalid_phone'],
        [{ appointmentTypeID: 1.5 }, 'invalid_appointment_type'],
        [{ addonIDs: [0] }, 'invalid_addon_ids'],
      ]);
      expect(refusal(request({ calendarID: undefined, addonIDs: ['x'] }, admin)).error).toBe(
        'required_calendar_id',
      );
    });
  });
});
