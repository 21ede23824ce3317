import type { Notification } from './notification.entity';
import {
  field,
  id,
  int,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** One message to the client (or the decision not to send it), as an admin reads it. */
export type NotificationView = ViewType<typeof NOTIFICATION_VIEW>;

/** Times are ISO 8601 UTC with milliseconds, as the webhook delivery log writes them. */
export function toNotificationView(row: Notification): NotificationView {
  return {
    /** A number like every id of the API (a BIGINT that will not pass 2^53). */
    id: Number(row.id),
    appointmentID: row.appointmentId,
    channel: row.channel,
    kind: row.kind,
    status: row.status,
    /** The e-mail address or phone number it went (or was to go) to. */
    recipient: row.recipient,
    attempts: row.attempts,
    /** Why the last attempt failed, or why it was skipped; null otherwise. */
    error: row.error,
    /** When it is or was due: at once for a confirmation or notice, a reminder's time for a reminder. */
    dueAt: row.dueAt.toISOString(),
    /** When it was sent; null unless `sent`. */
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    /** The last change: the last attempt, or the decision to skip. */
    updatedAt: row.updatedAt.toISOString(),
  };
}

const instant = (example: string) =>
  field<string>({ type: 'string', format: 'date-time', example });

export const NOTIFICATION_VIEW = viewSchema('NotificationView', {
  id: id(77),
  appointmentID: id(54321),
  channel: text('email'),
  kind: text('confirmation'),
  status: text('sent'),
  recipient: text('ada@example.com'),
  attempts: int(1),
  error: orNull(text('')),
  dueAt: instant('2030-06-03T14:15:00.000Z'),
  sentAt: orNull(instant('2030-06-03T14:15:02.000Z')),
  createdAt: instant('2030-06-03T14:15:00.000Z'),
  updatedAt: instant('2030-06-03T14:15:02.000Z'),
});
