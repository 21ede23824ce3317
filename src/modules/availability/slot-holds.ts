import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AttributeError } from '../../common/errors/domain-error';
import { deleteLiveHold, liveHold } from './slot-hold.repository';

/*
 * A hold's token and what booking does with it: the booking with `holdToken` finds the live hold,
 * ignores it in its busy check, and deletes it in its transaction (it becomes the appointment).
 */

/** 32 random bytes, base64url (43 characters): given once, when the hold is made. */
export function newHoldToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashHoldToken(token) };
}

/** Only the token's SHA-256 is stored: 256 random bits need no salt nor a slow hash. */
export function hashHoldToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A `holdToken` that is no live hold of the account: unknown, released, booked or expired. */
export class InvalidHoldTokenError extends AttributeError(
  'invalid_hold_token',
  () => 'The hold token is unknown, or its hold has ended.',
) {}

/** A live hold booked for another type, calendar or time than it holds. */
export class HoldMismatchError extends AttributeError(
  'invalid_hold_token',
  (datetime: string) =>
    `The hold is not for the appointment type, calendar and time "${datetime}" booked.`,
) {}

/** What a booking with a hold token books (`calendarId`: the one it names, if any). */
export interface BookedSlot {
  typeId: number;
  start: number;
  calendarId?: number;
  datetimeText: string;
}

/**
 * The hold a client's booking takes (none without a token), checked before the booking's
 * transaction: 400 `invalid_hold_token` for a token that is no live hold of the account, or whose
 * hold is for another type, time or (when the booking names one) calendar.
 */
export async function heldSlot(
  manager: EntityManager,
  accountId: number,
  token: string | undefined,
  booked: BookedSlot,
): Promise<{ id: number; calendarId: number } | undefined> {
  if (token === undefined) return undefined;
  const hold = await liveHold(manager, accountId, hashHoldToken(token));
  if (!hold) throw new InvalidHoldTokenError();
  const calendarId = Number(hold.calendarId);
  if (
    Number(hold.appointmentTypeId) !== booked.typeId ||
    new Date(hold.startsAt).getTime() !== booked.start ||
    (booked.calendarId !== undefined && booked.calendarId !== calendarId)
  )
    throw new HoldMismatchError(booked.datetimeText);
  return { id: Number(hold.id), calendarId };
}

/**
 * In the booking's transaction, under its calendar's lock: deletes the hold it books; refused (and
 * rolled back) when the hold ended meanwhile: released, booked by a request sent twice, expired.
 */
export async function consumeHold(tx: EntityManager, holdId: number): Promise<void> {
  if (!(await deleteLiveHold(tx, holdId))) throw new InvalidHoldTokenError();
}
