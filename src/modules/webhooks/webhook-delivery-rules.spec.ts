import { DAY } from '../../common/time/durations';
import {
  type AttemptFacts,
  decideAttempt,
  notificationOf,
  retryDelayMs,
  variablesObject,
  webhookIdOf,
} from './webhook-delivery-rules';
import { webhookBody } from './webhook-payload';

/** The contract's ladder: 2 s, 30 s, 1 min, 5 min, 10 min, 15 min, 30 min, 1 h, 12 h. */
const LADDER = [2_000, 30_000, 60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 43_200_000];
const POLICY = { retryDelaysMs: LADDER, disableAfterMs: 5 * DAY };

const T0 = new Date('2030-06-03T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe('notificationOf', () => {
  const appointment = { appointmentId: 42, calendarId: 7, appointmentTypeId: 3, noEmail: false };

  it.each([
    ['appointment.scheduled', 'scheduled'],
    ['appointment.rescheduled', 'rescheduled'],
    ['appointment.canceled', 'canceled'],
    ['appointment.changed', 'changed'],
  ])(
    'sends %s as action=%s with the appointment, its calendar and its type, in order',
    (type, action) => {
      const notification = notificationOf(type, appointment);
      expect(notification).toEqual({
        action,
        resourceId: 42,
        variables: [
          ['action', action],
          ['id', 42],
          ['calendarID', 7],
          ['appointmentTypeID', 3],
        ],
      });
      expect(webhookBody(variablesObject(notification!.variables))).toBe(
        `action=${action}&id=42&calendarID=7&appointmentTypeID=3`,
      );
    },
  );

  it('sends order.completed with action and id only', () => {
    const notification = notificationOf('order.completed', {
      orderId: 9,
      productId: 4,
      certificateIds: [11],
    });
    expect(notification).toEqual({
      action: 'order.completed',
      resourceId: 9,
      variables: [
        ['action', 'order.completed'],
        ['id', 9],
      ],
    });
    expect(webhookBody(variablesObject(notification!.variables))).toBe(
      'action=order.completed&id=9',
    );
  });

  it('announces nothing for other events or payloads without their ids', () => {
    expect(notificationOf('thing.happened', appointment)).toBeNull();
    expect(notificationOf('appointment.deleted', appointment)).toBeNull();
    expect(
      notificationOf('appointment.scheduled', { ...appointment, calendarId: null }),
    ).toBeNull();
    expect(
      notificationOf('appointment.scheduled', { ...appointment, appointmentId: '42' }),
    ).toBeNull();
    expect(notificationOf('order.completed', { orderId: 0 })).toBeNull();
    expect(notificationOf('order.completed', {})).toBeNull();
  });
});

describe('webhookIdOf', () => {
  it('names a message by its event and subscription (the same for every attempt)', () => {
    expect(webhookIdOf('12345678901234567890', 17)).toBe('msg_12345678901234567890_17');
  });
});

describe('retryDelayMs', () => {
  it('waits the contract ladder between attempts, then stops', () => {
    const waits = Array.from({ length: 11 }, (_, i) => retryDelayMs(i + 1, LADDER));
    expect(waits).toEqual([...LADDER, null, null]);
    // 10 attempts in all, 14 h 1 min 32 s from the first to the last (within the contract's 24 hours).
    expect(LADDER.reduce((a, b) => a + b, 0)).toBe(50_492_000);
  });

  it('has no rung before the first attempt, for a broken count, or on an empty ladder', () => {
    expect(retryDelayMs(0, LADDER)).toBeNull();
    expect(retryDelayMs(-1, LADDER)).toBeNull();
    expect(retryDelayMs(1.5, LADDER)).toBeNull();
    expect(retryDelayMs(1, [])).toBeNull();
  });

  it('follows a scaled ladder', () => {
    const scaled = LADDER.map((ms) => Math.round(ms * 0.05));
    expect([1, 2, 3].map((n) => retryDelayMs(n, scaled))).toEqual([100, 1500, 3000]);
  });
});

describe('decideAttempt', () => {
  const facts = (overrides: Partial<AttemptFacts> = {}): AttemptFacts => ({
    kind: 'retry',
    attemptsMade: 1,
    attemptedAt: T0,
    finishedAt: at(40),
    subscription: { status: 'active', failingSince: null },
    policy: POLICY,
    ...overrides,
  });

  it('delivers, and a success ends a failure streak', () => {
    expect(decideAttempt(facts({ kind: 'delivered' }))).toEqual({
      outcome: 'delivered',
      messageStatus: 'delivered',
      retryDelayMs: null,
      nextAttemptAt: null,
      streak: { kind: 'unchanged' },
    });
    expect(
      decideAttempt(
        facts({ kind: 'delivered', subscription: { status: 'active', failingSince: at(-DAY) } }),
      ).streak,
    ).toEqual({ kind: 'clear' });
  });

  it('leaves a disabled subscription disabled when a late attempt succeeds', () => {
    expect(
      decideAttempt(
        facts({ kind: 'delivered', subscription: { status: 'disabled', failingSince: at(-DAY) } }),
      ),
    ).toMatchObject({ outcome: 'delivered', streak: { kind: 'unchanged' } });
  });

  it('fails at once on an answer that is not retried, without counting towards disabling', () => {
    const decision = decideAttempt(
      facts({ kind: 'failed', subscription: { status: 'active', failingSince: at(-6 * DAY) } }),
    );
    expect(decision).toEqual({
      outcome: 'failed',
      messageStatus: 'failed',
      retryDelayMs: null,
      nextAttemptAt: null,
      streak: { kind: 'unchanged' },
    });
  });

  it('schedules the first retry 2 s after the first failure ends, starting a streak', () => {
    expect(decideAttempt(facts())).toEqual({
      outcome: 'retrying',
      messageStatus: 'pending',
      retryDelayMs: 2_000,
      nextAttemptAt: at(2_040),
      streak: { kind: 'start', failingSince: T0 },
    });
  });

  it('climbs the ladder by the message attempts, leaving a running streak as it is', () => {
    const decision = decideAttempt(
      facts({ attemptsMade: 4, subscription: { status: 'active', failingSince: at(-60_000) } }),
    );
    expect(decision).toEqual({
      outcome: 'retrying',
      messageStatus: 'pending',
      retryDelayMs: 300_000,
      nextAttemptAt: at(300_040),
      streak: { kind: 'unchanged' },
    });
  });

  it('stops after the last rung (the 10th attempt)', () => {
    expect(
      decideAttempt(
        facts({ attemptsMade: 10, subscription: { status: 'active', failingSince: at(-DAY) } }),
      ),
    ).toEqual({
      outcome: 'stopped',
      messageStatus: 'stopped',
      retryDelayMs: null,
      nextAttemptAt: null,
      streak: { kind: 'unchanged' },
    });
  });

  it('disables the subscription once failures have continued for the window, and stops', () => {
    const failingSince = at(-5 * DAY);
    expect(
      decideAttempt(facts({ attemptsMade: 2, subscription: { status: 'active', failingSince } })),
    ).toEqual({
      outcome: 'stopped',
      messageStatus: 'stopped',
      retryDelayMs: null,
      nextAttemptAt: null,
      streak: { kind: 'disable', failingSince, disabledAt: at(40) },
    });
    // A millisecond short of the window: still retried.
    expect(
      decideAttempt(
        facts({
          attemptsMade: 2,
          subscription: { status: 'active', failingSince: at(-5 * DAY + 1) },
        }),
      ).outcome,
    ).toBe('retrying');
  });

  it('stops without another write when the subscription was disabled meanwhile', () => {
    expect(
      decideAttempt(facts({ subscription: { status: 'disabled', failingSince: at(-5 * DAY) } })),
    ).toMatchObject({
      outcome: 'stopped',
      messageStatus: 'stopped',
      streak: { kind: 'unchanged' },
    });
  });

  it('disables at the first failure when the window is zero', () => {
    expect(decideAttempt(facts({ policy: { ...POLICY, disableAfterMs: 0 } }))).toMatchObject({
      outcome: 'stopped',
      streak: { kind: 'disable', failingSince: T0 },
    });
  });
});
