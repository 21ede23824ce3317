import { hash } from 'node:crypto';

/*
 * A client's details: how long each may be, which record a person is. The text each accepts is the
 * shared text rules' (common/http/text-rules.ts): a booking and `POST /clients` accept the same.
 */

/** As long as their columns hold (appointments and clients alike). */
export const CLIENT_TEXT_LIMITS = { firstName: 255, lastName: 255, email: 254, phone: 64 } as const;

/** A client's details as stored: trimmed, the e-mail lower-cased, `""` for none. */
export interface ClientDetails {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
}

/** A name as records are matched by it: trimmed, composed (NFC) and lower-cased. */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

/** A phone as records are matched by it: its digits, or without any, its trimmed lower-cased text. */
export function phoneKey(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits !== '' ? digits : phone.trim().toLowerCase();
}

/**
 * Which record of the client list these details are: the name with the e-mail, else with the phone,
 * else alone. The unique key `(account_id, identity_key)` holds its SHA-256 (hex): a short key, and
 * bookings racing for one new client make one record.
 */
export function identityKey(details: ClientDetails): string {
  const contact =
    details.email !== ''
      ? ['email', details.email.trim().toLowerCase()]
      : details.phone.trim() !== ''
        ? ['phone', phoneKey(details.phone)]
        : ['name'];
  const parts = [nameKey(details.firstName), nameKey(details.lastName), ...contact];
  // The one-shot hash(): createHash() costs a Hash object (and OpenSSL's lookup of SHA-256) per call.
  return hash('sha256', JSON.stringify(parts));
}
