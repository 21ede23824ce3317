import { type MessageFacts, describeWhen, renderEmail, renderSms } from './notification-content';

const facts: MessageFacts = {
  kind: 'confirmation',
  firstName: 'Ada',
  typeName: 'Consultation',
  calendarName: 'Room A',
  location: '12 Main St, Springfield',
  startsAt: new Date('2030-06-03T18:30:00Z'),
  endsAt: new Date('2030-06-03T19:00:00Z'),
  timezone: 'America/New_York',
  language: 'en',
  accountName: 'Test Clinic',
  confirmationPage: 'http://localhost:3000/confirmation/7-0123456789abcdef0123',
};

describe('describeWhen', () => {
  it.each([
    // DST in New York, standard time in winter, a zone English has no abbreviation for, UTC.
    ['2030-06-03T18:30:00Z', 'America/New_York', 'June 3, 2030', 'Monday', '2:30pm', 'EDT'],
    ['2030-01-07T15:05:00Z', 'America/New_York', 'January 7, 2030', 'Monday', '10:05am', 'EST'],
    ['2030-06-03T22:00:00Z', 'Europe/Paris', 'June 4, 2030', 'Tuesday', '12:00am', 'GMT+2'],
    ['2030-11-03T05:30:00Z', 'America/New_York', 'November 3, 2030', 'Sunday', '1:30am', 'EDT'],
    ['2030-11-03T06:30:00Z', 'America/New_York', 'November 3, 2030', 'Sunday', '1:30am', 'EST'],
    ['2030-06-03T12:00:00Z', 'UTC', 'June 3, 2030', 'Monday', '12:00pm', 'UTC'],
  ])('%s in %s → %s (%s) %s %s', (utc, zone, date, weekday, time, abbreviation) => {
    const start = new Date(utc);
    expect(describeWhen(start, new Date(start.getTime() + 30 * 60_000), zone)).toMatchObject({
      date,
      weekday,
      time,
      abbreviation,
      zone,
    });
  });
});

describe('renderEmail', () => {
  it('writes what, when in the appointment zone, with whom, where and the page, as text and HTML', () => {
    const { subject, text, html } = renderEmail(facts);
    expect(subject).toBe('Your appointment is confirmed: Consultation on June 3, 2030 at 2:30pm');
    expect(text).toBe(
      [
        'Hello Ada,',
        '',
        'Your appointment is confirmed.',
        '',
        'What:  Consultation',
        'When:  Monday, June 3, 2030, 2:30pm – 3:00pm EDT (America/New_York)',
        'With:  Room A',
        'Where: 12 Main St, Springfield',
        '',
        'See your appointment, or cancel or reschedule it:',
        'http://localhost:3000/confirmation/7-0123456789abcdef0123',
        '',
        'Test Clinic',
        '',
      ].join('\n'),
    );
    expect(html).toContain('<th align="left" valign="top">When</th><td>Monday, June 3, 2030');
    expect(html).toContain(
      '<a href="http://localhost:3000/confirmation/7-0123456789abcdef0123">See your appointment, or cancel or reschedule it</a>',
    );
  });

  it.each([
    [
      'rescheduled',
      'Your appointment has been rescheduled: Consultation on June 3, 2030 at 2:30pm',
    ],
    ['canceled', 'Your appointment has been canceled: Consultation on June 3, 2030 at 2:30pm'],
    ['reminder', 'Reminder: Consultation on June 3, 2030 at 2:30pm'],
  ] as const)('has a subject for %s', (kind, subject) => {
    expect(renderEmail({ ...facts, kind }).subject).toBe(subject);
  });

  it('does not offer to change a canceled appointment', () => {
    const { text } = renderEmail({ ...facts, kind: 'canceled' });
    expect(text).toContain('Your appointment below has been canceled.');
    expect(text).toContain('See the appointment:\n');
    expect(text).not.toContain('reschedule');
  });

  it('leaves out an empty location and greets without a name', () => {
    const { text } = renderEmail({ ...facts, location: ' ', firstName: '' });
    expect(text).not.toContain('Where:');
    expect(text.startsWith('Hello,\n')).toBe(true);
  });

  it('escapes every user-provided value in the HTML, and keeps the subject on one line', () => {
    const hostile = '<script>alert("x")</script> & \'co\'';
    const { subject, html, text } = renderEmail({
      ...facts,
      firstName: hostile,
      typeName: `Cut\r\nBcc: victim@example.com ${hostile}`,
      calendarName: hostile,
      location: hostile,
      accountName: hostile,
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('"x"');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    expect(subject).not.toMatch(/[\r\n]/);
    // The text part is plain text: shown as written.
    expect(text).toContain(hostile);
  });
});

/** What a message must never carry from a stored value: controls (but \n between lines), bidi controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INJECTED = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/** Values stored before issue 20 refused control characters in one-line attributes. */
const legacy: MessageFacts = {
  ...facts,
  firstName: 'Ada\r\nPlease pay at http://evil.example',
  typeName: 'Consultation\u202Eexe.',
  calendarName: 'Room\u0000A\tB',
  location: '12 Main St\nBcc: victim@example.com',
  accountName: 'Test\u0085Clinic\u2028',
};

describe('one-line values stored with control characters (issue 20)', () => {
  it('adds no line to the e-mail: a line break in a name is a space', () => {
    const { subject, text, html } = renderEmail(legacy);
    const lines = text.split('\n');
    expect(lines).toHaveLength(renderEmail(facts).text.split('\n').length);
    expect(lines[0]).toBe('Hello Ada Please pay at http://evil.example,');
    expect(lines).not.toContain('Please pay at http://evil.example');
    expect(lines).toContain('What:  Consultation exe.');
    expect(lines).toContain('With:  Room A B');
    expect(lines).toContain('Where: 12 Main St Bcc: victim@example.com');
    expect(lines).toContain('Test Clinic');
    for (const part of [subject, text, html]) expect(part).not.toMatch(INJECTED);
    expect(subject).toBe(
      'Your appointment is confirmed: Consultation exe. on June 3, 2030 at 2:30pm',
    );
  });

  it('keeps the SMS one line without controls', () => {
    for (const kind of ['confirmation', 'rescheduled', 'canceled', 'reminder'] as const) {
      const sms = renderSms({ ...legacy, kind });
      expect(sms).not.toMatch(INJECTED);
      expect(sms).not.toContain('\n');
      expect(sms.startsWith('Test Clinic: ')).toBe(true);
      expect(sms).toContain(' your Consultation exe. ');
    }
  });
});

describe('renderSms', () => {
  it.each([
    [
      'confirmation',
      'Test Clinic: your Consultation is confirmed for June 3, 2030 at 2:30pm EDT. To cancel or reschedule: http://localhost:3000/confirmation/7-0123456789abcdef0123',
    ],
    [
      'rescheduled',
      'Test Clinic: your Consultation has been moved to June 3, 2030 at 2:30pm EDT. Details: http://localhost:3000/confirmation/7-0123456789abcdef0123',
    ],
    ['canceled', 'Test Clinic: your Consultation on June 3, 2030 at 2:30pm EDT has been canceled.'],
    [
      'reminder',
      'Test Clinic: reminder of your Consultation on June 3, 2030 at 2:30pm EDT. To cancel or reschedule: http://localhost:3000/confirmation/7-0123456789abcdef0123',
    ],
  ] as const)('%s', (kind, text) => {
    expect(renderSms({ ...facts, kind })).toBe(text);
  });

  it('shows the client zone when the appointment has one', () => {
    expect(renderSms({ ...facts, timezone: 'America/Los_Angeles' })).toContain(
      'June 3, 2030 at 11:30am PDT',
    );
  });
});

describe('in the language the client booked in', () => {
  const spanish: MessageFacts = {
    ...facts,
    language: 'es',
    startsAt: new Date('2027-01-04T14:30:00Z'),
    endsAt: new Date('2027-01-04T15:00:00Z'),
  };

  it('writes the e-mail in Spanish: dates like "lunes, 4 de enero de 2027", the business’s text as written', () => {
    const { subject, text, html } = renderEmail(spanish);
    expect(subject).toBe('Su cita está confirmada: Consultation el 4 de enero de 2027 a las 9:30');
    expect(text).toBe(
      [
        'Hola, Ada:',
        '',
        'Su cita está confirmada.',
        '',
        'Qué:    Consultation',
        'Cuándo: lunes, 4 de enero de 2027, 9:30 – 10:00 GMT-5 (America/New_York)',
        'Con:    Room A',
        'Dónde:  12 Main St, Springfield',
        '',
        'Vea su cita, o cancélela o cámbiela de hora:',
        'http://localhost:3000/confirmation/7-0123456789abcdef0123',
        '',
        'Test Clinic',
        '',
      ].join('\n'),
    );
    expect(html).toContain('<html lang="es">');
  });

  it('writes the SMS and a series in German and French', () => {
    expect(renderSms({ ...spanish, language: 'de', kind: 'reminder' })).toBe(
      'Test Clinic: Erinnerung an Ihren Termin Consultation am 4. Januar 2027 um 09:30 GMT-5. Stornieren oder verlegen: http://localhost:3000/confirmation/7-0123456789abcdef0123',
    );
    const series = {
      frequency: 'weekly' as const,
      interval: 2,
      occurrences: [0, 14].map((d) => ({
        startsAt: new Date(spanish.startsAt.getTime() + d * 86_400_000),
        endsAt: new Date(spanish.endsAt.getTime() + d * 86_400_000),
      })),
    };
    const { subject, text } = renderEmail({ ...spanish, language: 'fr', series });
    expect(subject).toBe(
      'Vos rendez-vous sont confirmés : Consultation, 2 à partir du 4 janvier 2027 à 09:30',
    );
    expect(text).toContain('toutes les 2 semaines, 2 rendez-vous (America/New_York) :');
    expect(text).toContain('  lundi 18 janvier 2027, 09:30 – 10:00 UTC−5');
  });
});
