import { isEmail } from 'class-validator';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { isValidTimezone } from '../../common/time/zones';

export const DEFAULT_ACCOUNT_TIMEZONE = 'UTC';
export const MIN_PASSWORD_LENGTH = 8;

export function assertEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmail(trimmed) || trimmed.length > 254) {
    throw new InvalidAttributeError('invalid_email', 'Invalid "email" attribute value.');
  }
  return trimmed.toLowerCase();
}

export function assertName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 255) {
    throw new InvalidAttributeError(
      'invalid_name',
      'Attribute "name" must be 1 to 255 characters.',
    );
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
    throw new InvalidAttributeError('invalid_timezone', `Invalid timezone "${timezone}".`);
  }
  return ZONE_NAMES.get(timezone.toLowerCase()) ?? timezone;
}

export function assertPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 1024) {
    throw new InvalidAttributeError(
      'invalid_password',
      `A password must be ${MIN_PASSWORD_LENGTH} to 1024 characters long.`,
    );
  }
  return password;
}
