import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { isEmailAddress, toSingleLine } from '../../common/http/text-rules';
import type { MailConfig } from '../../config/app-config';
import { AppConfig } from '../../config/app-config';
import type { EmailContent } from './notification-content';
import { type SendOutcome, sendErrorOf } from './send-outcome';

export interface MailMessage extends EmailContent {
  /** One address: anything else is refused (see MailSender.send). */
  to: string;
  /** The display name of the sender (the account's name); the address is MAIL_FROM. */
  fromName: string;
  /** One address, or "" for none (anything else is left out). */
  replyTo: string;
  /**
   * The appointment's iTIP event (appointmentInvite) as nodemailer's `icalEvent`: a text/calendar
   * part with its METHOD, which mail clients offer to add or update, and an `invite.ics`.
   */
  calendarEvent?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** Why a message was not sent to a recipient that is not one address (its record's `error`). */
export const NOT_ONE_RECIPIENT = 'the recipient is not one e-mail address';

/** Kept short: a job holds its message's lease while it waits. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Errors of the message itself, not of the server: sending it again gives the same. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'ECONFIG', 'EMAXRECIPIENTS']);

/** The nodemailer options of the configuration: a small pool of connections to one SMTP server. */
export function transportOptions(mail: MailConfig) {
  return {
    pool: true as const,
    maxConnections: 5,
    host: mail.host,
    port: mail.port,
    secure: mail.secure,
    requireTLS: mail.requireTls,
    ...(mail.auth ? { auth: { user: mail.auth.user, pass: mail.auth.password } } : {}),
    ...TIMEOUTS,
  };
}

/**
 * Whether a failed send is worth another attempt: a permanent SMTP reply (5xx but 503, which
 * nodemailer marks `permanent`) or a message the server can never take is `failed`; a 4xx reply,
 * a refused, closed or timed-out connection, a TLS or authentication hiccup are `retry`.
 */
export function classifyMailError(err: unknown): SendOutcome {
  const { code, responseCode, permanent } = (err ?? {}) as Record<string, unknown>;
  const error = sendErrorOf(err);
  if (permanent === true) return { kind: 'failed', error };
  if (typeof responseCode !== 'number' && typeof code === 'string' && PERMANENT_CODES.has(code))
    return { kind: 'failed', error };
  return { kind: 'retry', error };
}

/**
 * Sends client e-mail through the SMTP server (nodemailer, pooled). Never throws: every problem is
 * an outcome. A message has one recipient, given as an address object and as the envelope's only
 * RCPT TO, so that nothing is parsed as an address list (a `to` of `a@x,b@y` would reach both); a
 * recipient that is not one address (an old row) is `failed` without a word to the server.
 */
@Injectable()
export class MailSender implements OnApplicationShutdown {
  private readonly transport;
  private readonly from: string;

  constructor(config: AppConfig) {
    this.transport = createTransport(transportOptions(config.notifications.mail));
    this.from = config.notifications.mail.from;
  }

  async send(message: MailMessage): Promise<SendOutcome> {
    if (!isEmailAddress(message.to)) return { kind: 'failed', error: NOT_ONE_RECIPIENT };
    const to = { name: '', address: message.to };
    try {
      const info = await this.transport.sendMail({
        from: { name: toSingleLine(message.fromName), address: this.from },
        to,
        replyTo: isEmailAddress(message.replyTo)
          ? { name: '', address: message.replyTo }
          : undefined,
        envelope: { from: this.from, to: [to] },
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.calendarEvent
          ? { icalEvent: { filename: 'invite.ics', ...message.calendarEvent } }
          : {}),
        // RFC 3834: automatic mail; auto-responders should not answer it.
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { kind: 'sent', providerMessageId: info.messageId ?? null };
    } catch (err) {
      return classifyMailError(err);
    }
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
