import { InvalidAttributeError } from '../../common/errors/domain-error';
import { WEBHOOK_EVENTS } from './webhook-subscription.entity';

/** Dynamic subscriptions an account may have (the contract's limit); static ones do not count. */
export const MAX_WEBHOOKS = 25;

/** A target the policy refuses; `reason` says why (see checkOutboundTarget). */
export class InvalidTargetError extends InvalidAttributeError {
  constructor(attribute: string, reason: string) {
    super('invalid_target', `Attribute "${attribute}" ${reason}`);
  }
}

export class TooManyWebhooksError extends InvalidAttributeError {
  constructor(owner: 'account' | 'enterprise' = 'account') {
    super(
      'too_many_webhooks',
      `An ${owner} can have at most ${MAX_WEBHOOKS} webhooks; delete one to add another.`,
    );
  }
}

/*
 * Contexts of request constraints (see ErrorContext). `message` as well as `context`: class-validator
 * attaches a context only to a failure with a non-empty message.
 */
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
