import {
  AttributeError,
  InvalidAttributeError,
  TooManyRequestsError,
} from '../../common/errors/domain-error';

/** `minutes` that is no whole number from 1 to the account's longest hold. */
export class InvalidHoldMinutesError extends AttributeError(
  'invalid_minutes',
  (max: number) => `The minutes must be a whole number from 1 to ${max}.`,
) {}

/** An extension past the longest a hold lasts, counted from when it was made. */
export class HoldTooLongError extends AttributeError(
  'invalid_minutes',
  (max: number) => `A hold lasts at most ${max} minutes from when it was made.`,
) {}

export class InvalidHoldAddonIdsError extends AttributeError(
  'invalid_addon_ids',
  () => 'Invalid "addonIDs" attribute value.',
) {}

/** Every page-hold limit and the API's cap answer this code (429: a hold ends, then one fits). */
const TOO_MANY_HOLDS = 'too_many_holds';

/** The account's `maxLiveHolds` API holds are live: retry when the first ends (`Retry-After`). */
export class TooManyHoldsError extends TooManyRequestsError {
  constructor(max: number, retryAfterSeconds: number) {
    super(
      `The account already has ${max} live slot holds, the most it may have at once ` +
        '(maxLiveHolds): release one or let one end first.',
      retryAfterSeconds,
      TOO_MANY_HOLDS,
    );
  }
}

/** A network's page holds at once (`pageHoldsPerAddress`) are all live: the page says so in words. */
export class NetworkHoldLimitError extends InvalidAttributeError {
  constructor(max: number) {
    super(
      TOO_MANY_HOLDS,
      max === 0
        ? 'The scheduling page does not hold times.'
        : `At most ${max} times may be held at once from one network.`,
      429,
    );
  }
}

/** Page holds would take more than their share (`pageHoldDayShare`) of the day's offered times. */
export class DayHoldShareError extends InvalidAttributeError {
  constructor(percent: number) {
    super(
      TOO_MANY_HOLDS,
      `Holds from the scheduling page may take at most ${percent}% of a day's times.`,
      429,
    );
  }
}
