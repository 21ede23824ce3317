import { InvalidAttributeError } from '../../common/errors/domain-error';
import type { Unavailable } from './slot-engine';

/** The contract's error for a time that cannot be booked, as booking and the checks give it. */
export function unavailable(reason: Unavailable, datetime: string): InvalidAttributeError {
  const messages: Record<Unavailable, string> = {
    not_available_min_hours_in_advance: `The time "${datetime}" is not far enough in advance.`,
    not_available_max_days_in_advance: `The time "${datetime}" is too far in advance.`,
    not_available: `The time "${datetime}" is not an available time slot.`,
  };
  return new InvalidAttributeError(reason, messages[reason]);
}
