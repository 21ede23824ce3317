import { isEmail } from 'class-validator';
import { isValidTimezone } from '../../common/time/zones';
import {
  InvalidEmailError,
  InvalidNameError,
  InvalidPasswordError,
  InvalidTimezoneError,
} from './accounts.errors';

export const DEFAULT_ACCOUNT_TIMEZONE = 'UTC';
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

export function assertEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmail(trimmed) || trimmed.length > 254) {
    throw new InvalidEmailError();
  }
  return trimmed.toLowerCase();
}

export function assertName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 255) {
    throw new InvalidNameError();
  }
  return trimmed;
}

/** IANA zone names by their lower case: zones are matched regardless of case, stored as named. */
const ZONE_NAMES = new Map(
  [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone]),
);

/**
 * The zone as IANA spells it (`america/new_york` → `America/New_York`; a link such as `US/Eastern`
 * stays as given), or 400 `invalid_timezone`.
 */
export function assertTimezone(timezone: string): string {
  if (!isValidTimezone(timezone)) {
    throw new InvalidTimezoneError(timezone);
  }
  return ZONE_NAMES.get(timezone.toLowerCase()) ?? timezone;
}

export function assertPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new InvalidPasswordError(MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH);
  }
  return password;
}
