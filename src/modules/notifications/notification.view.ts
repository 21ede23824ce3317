import type { Notification } from './notification.entity';

/** One message to the client (or the decision not to send it), as an admin reads it. */
export interface NotificationView {
  /** A number like every id of the API (a BIGINT that will not pass 2^53). */
  id: number;
  appointmentID: number;
  channel: string;
  kind: string;
  status: string;
  /** The e-mail address or phone number it went (or was to go) to. */
  recipient: string;
  attempts: number;
  /** Why the last attempt failed, or why it was skipped; null otherwise. */
  error: string | null;
  /** When it is or was due: at once for a confirmation or notice, a reminder's time for a reminder. */
  dueAt: string;
  /** When it was sent; null unless `sent`. */
  sentAt: string | null;
  createdAt: string;
  /** The last change: the last attempt, or the decision to skip. */
  updatedAt: string;
}

/** Times are ISO 8601 UTC with milliseconds, as the webhook delivery log writes them. */
export function toNotificationView(row: Notification): NotificationView {
  return {
    id: Number(row.id),
    appointmentID: row.appointmentId,
    channel: row.channel,
    kind: row.kind,
    status: row.status,
    recipient: row.recipient,
    attempts: row.attempts,
    error: row.error,
    dueAt: row.dueAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
