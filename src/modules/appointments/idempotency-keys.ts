import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { IdempotencyKeyReusedError, InvalidIdempotencyKeyError } from './appointment.errors';
import { IdempotencyKeyRepository } from './idempotency-key.repository';

/** How long a key keeps answering with its booking. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A request's key and what it asked for. */
export interface IdempotencyClaim {
  key: string;
  requestHash: string;
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST /appointments: a retry with the same key and body gets the appointment
 * the first request booked. The key is written in the booking's transaction under a unique key, so
 * two requests racing with one key book once: the second's insert waits for the first and fails,
 * and it answers the first's booking. Only bookings are remembered: a refused request may retry.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(private readonly keys: IdempotencyKeyRepository) {}

  /** The claim of a request, or undefined without the header; 400 for a malformed key. */
  claim(header: unknown, request: object, flags: object): IdempotencyClaim | undefined {
    if (header === undefined) return undefined;
    if (typeof header !== 'string' || !KEY.test(header)) throw new InvalidIdempotencyKeyError();
    const requestHash = createHash('sha256')
      .update(canonicalJson({ request, flags }))
      .digest('hex');
    return { key: header, requestHash };
  }

  /** The appointment this key booked within the window, or null; 400 if another request's. */
  private async bookedBy(accountId: number, claim: IdempotencyClaim): Promise<number | null> {
    const row = await this.keys.find(accountId, claim.key);
    if (!row) return null;
    if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_WINDOW_MS) {
      await this.keys.delete(row);
      return null;
    }
    if (row.requestHash !== claim.requestHash) throw new IdempotencyKeyReusedError();
    return row.appointmentId;
  }

  /**
   * Books once per key: a request whose key booked already answers that booking (`replay`), and so
   * does one that failed after another request with its key booked while it waited (on the
   * calendar's lock or the key's row) and then found its slot taken or its key used.
   */
  async once<T>(
    accountId: number,
    claim: IdempotencyClaim | undefined,
    book: () => Promise<T>,
    replay: (appointmentId: number) => Promise<T>,
  ): Promise<T> {
    if (!claim) return book();
    const booked = await this.bookedBy(accountId, claim);
    if (booked) return replay(booked);
    try {
      return await book();
    } catch (e) {
      const bookedMeanwhile = await this.bookedBy(accountId, claim);
      if (bookedMeanwhile) return replay(bookedMeanwhile);
      throw e;
    }
  }

  /** Inside the booking's transaction: the key now names this appointment (ER_DUP_ENTRY if taken). */
  async record(
    tx: EntityManager,
    accountId: number,
    claim: IdempotencyClaim,
    appointmentId: number,
  ) {
    await this.keys.insert(tx, { accountId, ...claim, appointmentId, createdAt: new Date() });
  }
}

/** JSON with object keys sorted, so that the same request hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
