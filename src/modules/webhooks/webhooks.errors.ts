import { WEBHOOK_EVENTS } from './webhook-subscription.entity';

/** Dynamic subscriptions an account may have (the contract's limit); static ones do not count. */
export const MAX_WEBHOOKS = 25;

/** A constraint's context (ErrorContext), and a message: class-validator needs one to attach it. */
const withContext = (code: string, message: string) => ({ message, context: { code, message } });

export const INVALID_EVENT = withContext(
  'invalid_event',
  `Attribute "event" must be one of ${WEBHOOK_EVENTS.join(', ')}.`,
);

/** Only `active` can be set: a webhook is disabled by its failures, not by a request. */
export const invalidStatus = (attribute: string) =>
  withContext('invalid_status', `Attribute "${attribute}" must be "active".`);

/** A target of a static webhook that is not a string (nor null). */
export const invalidStaticTarget = (attribute: string) =>
  withContext('invalid_target', `Invalid "${attribute}" attribute value.`);
