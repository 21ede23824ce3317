import { type KeyObject, createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * The token of an appointment's confirmation page (`/confirmation/{id}-{mac}`): the appointment's
 * id and a MAC of its account and id under the server's secret (HMAC-SHA256, 128 bits shown). It is
 * derived, not stored, so every answer can show the link without a lookup; it cannot be guessed
 * (2^128 tries) nor found from another client's by counting ids; it opens exactly its appointment
 * of its account (the MAC names both, and the page checks both against the row). Rotating
 * APP_SECRET retires every link sent before.
 */
const MAC_HEX_LENGTH = 32;
const TOKEN = /^([1-9]\d{0,9})-([0-9a-f]{32})$/;

/** The secret as a KeyObject, made once: a string key is imported again by every createHmac. */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

function macOf(secret: string, accountId: number, id: number): string {
  return createHmac('sha256', keyOf(secret))
    .update(`confirmation-page:${accountId}:${id}`)
    .digest('hex')
    .slice(0, MAC_HEX_LENGTH);
}

export function confirmationToken(secret: string, accountId: number, id: number): string {
  return `${id}-${macOf(secret, accountId, id)}`;
}

export function confirmationPage(
  publicUrl: string,
  secret: string,
  accountId: number,
  id: number,
): string {
  return `${publicUrl}/confirmation/${confirmationToken(secret, accountId, id)}`;
}

/** The appointment id a token claims, or undefined when it has not the token's shape. */
export function claimedAppointmentId(token: string): number | undefined {
  const match = TOKEN.exec(token);
  return match ? Number(match[1]) : undefined;
}

/** Whether the token is the one of that appointment of that account (constant-time compare). */
export function tokenMatches(
  secret: string,
  token: string,
  appointment: { id: number; accountId: number },
): boolean {
  const match = TOKEN.exec(token);
  if (!match || Number(match[1]) !== appointment.id) return false;
  const expected = Buffer.from(macOf(secret, appointment.accountId, appointment.id), 'utf8');
  return timingSafeEqual(expected, Buffer.from(match[2], 'utf8'));
}
