import {
  type Audience,
  type SendTimeFacts,
  SKIP,
  decideAtSendTime,
  decideChannels,
  eventKey,
  reminderDueAt,
  reminderKey,
} from './notification-rules';

const client: Audience = {
  email: 'ada@example.com',
  phone: '+15550100',
  smsOptIn: false,
  requireSmsOptIn: false,
};
const on = { sendConfirmationEmail: true, sendSms: true };

describe('decideChannels', () => {
  it('sends an e-mail and an SMS when the client has both and nothing forbids them', () => {
    expect(decideChannels(client, on, { noEmail: false })).toEqual([
      { channel: 'email', recipient: 'ada@example.com', send: true },
      { channel: 'sms', recipient: '+15550100', send: true },
    ]);
  });

  it('leaves out a channel without a recipient (blank counts as none)', () => {
    expect(decideChannels({ ...client, phone: '  ' }, on, { noEmail: false })).toEqual([
      { channel: 'email', recipient: 'ada@example.com', send: true },
    ]);
    expect(decideChannels({ ...client, email: '' }, on, { noEmail: false })).toEqual([
      { channel: 'sms', recipient: '+15550100', send: true },
    ]);
  });

  it('skips both channels for noEmail, whatever else holds', () => {
    expect(decideChannels({ ...client, smsOptIn: true }, on, { noEmail: true })).toEqual([
      { channel: 'email', recipient: 'ada@example.com', send: false, reason: SKIP.noEmail },
      { channel: 'sms', recipient: '+15550100', send: false, reason: SKIP.noEmail },
    ]);
  });

  it.each([
    [{ sendConfirmationEmail: false, sendSms: true }, [SKIP.emailOff, true]],
    [{ sendConfirmationEmail: true, sendSms: false }, [true, SKIP.smsOff]],
    [{ sendConfirmationEmail: false, sendSms: false }, [SKIP.emailOff, SKIP.smsOff]],
  ])('follows the account switches %j', (settings, expected) => {
    const outcome = decideChannels(client, settings, { noEmail: false }).map((d) =>
      d.send ? true : d.reason,
    );
    expect(outcome).toEqual(expected);
  });

  it.each([
    // [requireSmsOptIn, smsOptIn, SMS sent?]
    [true, false, false],
    [true, true, true],
    [false, false, true],
    [false, true, true],
  ])(
    'SMS opt-in: type requires it %p, client opted in %p → SMS %p; e-mail unaffected',
    (requireSmsOptIn, smsOptIn, sms) => {
      const [email, text] = decideChannels({ ...client, requireSmsOptIn, smsOptIn }, on, {
        noEmail: false,
      });
      expect(email).toEqual({ channel: 'email', recipient: 'ada@example.com', send: true });
      expect(text).toEqual(
        sms
          ? { channel: 'sms', recipient: '+15550100', send: true }
          : { channel: 'sms', recipient: '+15550100', send: false, reason: SKIP.noOptIn },
      );
    },
  );

  // Issue 20: rows stored before e-mails and phones were checked.
  it.each([
    'a@x.test,b@x.test',
    'a@x.test\r\nBcc: b@x.test',
    'team: a@x.test, b@x.test;',
    'Ada <a@x.test>',
    'front desk',
  ])('skips, with the reason, an e-mail that is not one address: %j', (email) => {
    expect(decideChannels({ ...client, email }, on, { noEmail: false })[0]).toEqual({
      channel: 'email',
      recipient: email,
      send: false,
      reason: SKIP.notOneEmailAddress,
    });
  });

  it.each(['call me', '555\r\n0100', '+1 555\u202E0100'])(
    'skips, with the reason, a phone that is not a phone number: %j',
    (phone) => {
      expect(decideChannels({ ...client, phone }, on, { noEmail: false })[1]).toEqual({
        channel: 'sms',
        recipient: phone,
        send: false,
        reason: SKIP.notAPhoneNumber,
      });
    },
  );

  it('names the switch before a malformed recipient', () => {
    const off = { sendConfirmationEmail: false, sendSms: false };
    expect(
      decideChannels({ ...client, email: 'a@x.test,b@x.test', phone: 'x' }, off, {
        noEmail: false,
      }).map((d) => (d.send ? true : d.reason)),
    ).toEqual([SKIP.emailOff, SKIP.smsOff]);
  });

  it('names the switch before the opt-in when both forbid an SMS', () => {
    const [, sms] = decideChannels(
      { ...client, requireSmsOptIn: true },
      { sendConfirmationEmail: true, sendSms: false },
      { noEmail: false },
    );
    expect(sms).toMatchObject({ send: false, reason: SKIP.smsOff });
  });
});

describe('reminderDueAt', () => {
  const now = Date.parse('2030-06-01T12:00:00Z');
  const startsAt = new Date('2030-06-03T14:30:00Z');

  it('is reminderHours before the start', () => {
    expect(reminderDueAt({ canceled: false, startsAt }, 24, now)).toEqual(
      new Date('2030-06-02T14:30:00Z'),
    );
    expect(reminderDueAt({ canceled: false, startsAt }, 1, now)).toEqual(
      new Date('2030-06-03T13:30:00Z'),
    );
  });

  it('is none when reminders are off, the appointment is canceled, or the time has passed', () => {
    expect(reminderDueAt({ canceled: false, startsAt }, 0, now)).toBeNull();
    expect(reminderDueAt({ canceled: true, startsAt }, 24, now)).toBeNull();
    expect(reminderDueAt({ canceled: false, startsAt }, 51, now)).toBeNull();
    // Exactly now is past too: the job would run at once, after the confirmation.
    expect(reminderDueAt({ canceled: false, startsAt }, 50.5, now)).toBeNull();
    expect(reminderDueAt({ canceled: false, startsAt: new Date(now - 1) }, 1, now)).toBeNull();
  });
});

describe('decideAtSendTime', () => {
  const now = Date.parse('2030-06-02T14:30:00Z');
  const startsAt = new Date('2030-06-03T14:30:00Z');
  const facts: SendTimeFacts = {
    ...client,
    ...on,
    reminderHours: 24,
    canceled: false,
    startsAt,
  };
  const reminder = (channel: 'email' | 'sms', reminderFor = startsAt) => ({
    kind: 'reminder' as const,
    channel,
    reminderFor,
  });

  it('sends a due reminder to the current recipient', () => {
    expect(
      decideAtSendTime(reminder('email'), { ...facts, email: 'new@example.com' }, now),
    ).toEqual({ kind: 'send', recipient: 'new@example.com' });
    expect(decideAtSendTime(reminder('sms'), facts, now)).toEqual({
      kind: 'send',
      recipient: '+15550100',
    });
  });

  it('skips a message whose address became a list since it was planned (issue 20)', () => {
    const list = { ...facts, email: 'a@x.test,b@x.test' };
    for (const message of [
      reminder('email'),
      { ...reminder('email'), kind: 'confirmation' as const },
    ])
      expect(decideAtSendTime(message, list, now)).toEqual({
        kind: 'skip',
        reason: SKIP.notOneEmailAddress,
      });
  });

  it('drops the reminder of a canceled or moved appointment', () => {
    expect(decideAtSendTime(reminder('email'), { ...facts, canceled: true }, now)).toEqual({
      kind: 'drop',
      reason: 'the appointment was canceled',
    });
    expect(
      decideAtSendTime(reminder('email', new Date('2030-06-03T15:00:00Z')), facts, now),
    ).toEqual({ kind: 'drop', reason: 'the appointment was moved' });
  });

  it('skips a reminder that comes after the start, or once reminders are off', () => {
    expect(decideAtSendTime(reminder('email'), facts, startsAt.getTime())).toEqual({
      kind: 'skip',
      reason: SKIP.started,
    });
    expect(decideAtSendTime(reminder('email'), { ...facts, reminderHours: 0 }, now)).toEqual({
      kind: 'skip',
      reason: SKIP.remindersOff,
    });
  });

  it('applies the switches and the opt-in again, and needs a recipient', () => {
    expect(decideAtSendTime(reminder('sms'), { ...facts, requireSmsOptIn: true }, now)).toEqual({
      kind: 'skip',
      reason: SKIP.noOptIn,
    });
    expect(decideAtSendTime(reminder('sms'), { ...facts, sendSms: false }, now)).toEqual({
      kind: 'skip',
      reason: SKIP.smsOff,
    });
    expect(decideAtSendTime(reminder('sms'), { ...facts, phone: '' }, now)).toEqual({
      kind: 'skip',
      reason: SKIP.noPhone,
    });
    expect(
      decideAtSendTime(
        { kind: 'confirmation', channel: 'email', reminderFor: null },
        {
          ...facts,
          email: '',
        },
        now,
      ),
    ).toEqual({ kind: 'skip', reason: SKIP.noEmailAddress });
  });

  it('skips a confirmation or a move notice once the appointment is canceled, never the cancel notice', () => {
    const canceled = { ...facts, canceled: true };
    for (const kind of ['confirmation', 'rescheduled'] as const) {
      expect(
        decideAtSendTime({ kind, channel: 'email', reminderFor: null }, canceled, now),
      ).toEqual({ kind: 'skip', reason: SKIP.canceledSince });
    }
    expect(
      decideAtSendTime({ kind: 'canceled', channel: 'email', reminderFor: null }, canceled, now),
    ).toEqual({ kind: 'send', recipient: 'ada@example.com' });
  });

  it('sends messages of events whatever the time (a notice may follow the start)', () => {
    expect(
      decideAtSendTime(
        { kind: 'canceled', channel: 'sms', reminderFor: null },
        { ...facts, canceled: true },
        startsAt.getTime() + 60_000,
      ),
    ).toEqual({ kind: 'send', recipient: '+15550100' });
  });
});

describe('keys', () => {
  it('are unique per event and channel, and per appointment, start and channel', () => {
    expect(eventKey('123', 'sms')).toBe('event:123:sms');
    expect(reminderKey(7, new Date('2030-06-03T14:30:00Z'), 'email')).toBe(
      `reminder:7:${Date.parse('2030-06-03T14:30:00Z')}:email`,
    );
  });
});
