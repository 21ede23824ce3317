import { InvalidAttributeError } from '../../common/errors/domain-error';

/** `minutes` that is no whole number from 1 to the account's longest hold. */
export class InvalidHoldMinutesError extends InvalidAttributeError {
  constructor(max: number) {
    super('invalid_minutes', `The minutes must be a whole number from 1 to ${max}.`);
  }
}

/** An extension past the longest a hold lasts, counted from when it was made. */
export class HoldTooLongError extends InvalidAttributeError {
  constructor(max: number) {
    super('invalid_minutes', `A hold lasts at most ${max} minutes from when it was made.`);
  }
}

/** `addonIDs` that are not ids. */
export class InvalidHoldAddonIdsError extends InvalidAttributeError {
  constructor() {
    super('invalid_addon_ids', 'Invalid "addonIDs" attribute value.');
  }
}
