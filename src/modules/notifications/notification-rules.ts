import { isEmailAddress, isPhoneNumber } from '../../common/http/text-rules';
import { DomainEventType } from '../../common/outbox/domain-event-types';
import type { Channel, NotificationKind } from './notification.entity';

/** The domain events a client hears of, and what the message is called. */
export const KIND_OF_EVENT: Readonly<Partial<Record<DomainEventType, NotificationKind>>> = {
  [DomainEventType.AppointmentScheduled]: 'confirmation',
  [DomainEventType.AppointmentRescheduled]: 'rescheduled',
  [DomainEventType.AppointmentCanceled]: 'canceled',
};

/** Who the client is and what they allowed, as the appointment and its type say. */
export interface Audience {
  email: string;
  phone: string;
  smsOptIn: boolean;
  /** The appointment type's rule: SMS only to clients who opted in (else `smsOptIn` is ignored). */
  requireSmsOptIn: boolean;
}

/** The account's switches (`GET/PUT /settings`). */
export interface NotificationSettings {
  /** Client e-mail at all: confirmations, notices of a move or a cancellation, reminders. */
  sendConfirmationEmail: boolean;
  /** Client SMS at all, likewise. */
  sendSms: boolean;
  /** Hours before the start a reminder goes; 0 = none. */
  reminderHours: number;
}

/** Whether one channel carries a message, and to whom. */
export type ChannelDecision =
  | { channel: Channel; recipient: string; send: true }
  | { channel: Channel; recipient: string; send: false; reason: string };

/** Why a message was not sent, as recorded in its row's `error` (an admin reads it). */
export const SKIP = {
  noEmail: 'suppressed by noEmail=true on the request',
  emailOff: 'client e-mail is off in the settings (sendConfirmationEmail)',
  smsOff: 'client SMS is off in the settings (sendSms)',
  noOptIn: 'the appointment type requires SMS opt-in and the client did not opt in',
  noEmailAddress: 'the appointment has no e-mail address',
  noPhone: 'the appointment has no phone number',
  notOneEmailAddress: 'the appointment’s e-mail is not one valid address',
  notAPhoneNumber: 'the appointment’s phone is not a valid phone number',
  canceledSince: 'the appointment was canceled before this was sent',
  started: 'the appointment had started when the reminder was due',
  remindersOff: 'reminders are off in the settings (reminderHours 0)',
} as const;

/**
 * The channels with a recipient (e-mail, SMS) a message about an appointment goes on. Each sends
 * unless the request said `noEmail` (both channels, this message only), the account switched it
 * off, or SMS needs an opt-in not given; never to a recipient that is not one address or number
 * (an old row: a list of addresses, a header after a line break).
 */
export function decideChannels(
  audience: Audience,
  settings: Pick<NotificationSettings, 'sendConfirmationEmail' | 'sendSms'>,
  options: { noEmail: boolean },
): ChannelDecision[] {
  const email = audience.email.trim();
  const phone = audience.phone.trim();
  return [
    decided('email', email, [
      [options.noEmail, SKIP.noEmail],
      [!settings.sendConfirmationEmail, SKIP.emailOff],
      [!isEmailAddress(email), SKIP.notOneEmailAddress],
    ]),
    decided('sms', phone, [
      [options.noEmail, SKIP.noEmail],
      [!settings.sendSms, SKIP.smsOff],
      [audience.requireSmsOptIn && !audience.smsOptIn, SKIP.noOptIn],
      [!isPhoneNumber(phone), SKIP.notAPhoneNumber],
    ]),
  ].filter((decision) => decision.recipient !== '');
}

/** The channel's decision: the reason of the first skip that applies, else send. */
function decided(channel: Channel, recipient: string, skips: [boolean, string][]): ChannelDecision {
  const reason = skips.find(([applies]) => applies)?.[1];
  return reason === undefined
    ? { channel, recipient, send: true }
    : { channel, recipient, send: false, reason };
}

const HOUR = 60 * 60 * 1000;

/**
 * When the appointment's reminder goes: `reminderHours` before its start; none when it is canceled,
 * reminders are off, or that time has passed (a late booking gets its confirmation only).
 */
export function reminderDueAt(
  appointment: { canceled: boolean; startsAt: Date },
  reminderHours: number,
  now: number,
): Date | null {
  if (appointment.canceled || reminderHours <= 0) return null;
  const due = appointment.startsAt.getTime() - reminderHours * HOUR;
  return due > now ? new Date(due) : null;
}

/** The appointment as it is when a message's job runs. */
export interface SendTimeFacts extends Audience, NotificationSettings {
  canceled: boolean;
  startsAt: Date;
}

export type SendTimeDecision =
  | { kind: 'send'; recipient: string }
  | { kind: 'skip'; reason: string }
  | { kind: 'drop'; reason: string };

/**
 * What a job does with its message, decided again when it runs (the appointment, its type and the
 * settings may have changed): `drop` a reminder of a canceled appointment or of another start (a
 * plan, never a message: deleted, not recorded); `skip` with the reason; or `send` to the current
 * address or number. So a reminder job that outlived its purpose can never send anything wrong.
 */
export function decideAtSendTime(
  message: { kind: NotificationKind; channel: Channel; reminderFor: Date | null },
  facts: SendTimeFacts,
  now: number,
): SendTimeDecision {
  if (message.kind === 'reminder') {
    if (facts.canceled) return { kind: 'drop', reason: 'the appointment was canceled' };
    if (message.reminderFor === null || message.reminderFor.getTime() !== facts.startsAt.getTime())
      return { kind: 'drop', reason: 'the appointment was moved' };
    if (facts.startsAt.getTime() <= now) return { kind: 'skip', reason: SKIP.started };
    if (facts.reminderHours <= 0) return { kind: 'skip', reason: SKIP.remindersOff };
  } else if (message.kind !== 'canceled' && facts.canceled) {
    return { kind: 'skip', reason: SKIP.canceledSince };
  }
  const decision = decideChannels(facts, facts, { noEmail: false }).find(
    (d) => d.channel === message.channel,
  );
  if (!decision)
    return {
      kind: 'skip',
      reason: message.channel === 'email' ? SKIP.noEmailAddress : SKIP.noPhone,
    };
  if (!decision.send) return { kind: 'skip', reason: decision.reason };
  return { kind: 'send', recipient: decision.recipient };
}

/** The unique key of the message of one domain event on one channel. */
export function eventKey(outboxId: string, channel: Channel): string {
  return `event:${outboxId}:${channel}`;
}

/** The unique key of the reminder of one start time of an appointment on one channel. */
export function reminderKey(appointmentId: number, startsAt: Date, channel: Channel): string {
  return `reminder:${appointmentId}:${startsAt.getTime()}:${channel}`;
}

/** What fits the `error` column. */
export function clip(text: string, max = 255): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
