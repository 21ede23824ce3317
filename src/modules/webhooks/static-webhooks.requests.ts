import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { Equals, IsObject, IsString, ValidateNested } from 'class-validator';
import { IfGiven, Optional, OptionalNullable, Trim } from '../../common/http/attributes';
import type { StaticWebhookKey } from './webhook-subscription.entity';
import { invalidStatus, invalidStaticTarget } from './webhooks.errors';

/** One key of `PUT /integrations/webhooks`: what to do with the static webhook of that action. */
export interface StaticWebhookChange {
  /** A URL sets or replaces the target; null or "" removes the webhook. */
  target?: string | null;
  /** `active` re-enables a disabled webhook. */
  status?: 'active';
}

/** An optional change of one key, its errors naming the attribute in full (`scheduled.target`). */
function ChangeOf(key: StaticWebhookKey): PropertyDecorator {
  class Change implements StaticWebhookChange {
    @Trim()
    @OptionalNullable()
    @IsString(invalidStaticTarget(`${key}.target`))
    target?: string | null;

    @IfGiven(Equals('active', invalidStatus(`${key}.status`)))
    status?: 'active';
  }
  // As if stacked `@Optional() @ValidateNested() @Type(…) @IsObject()`: those run from the bottom.
  return applyDecorators(
    IsObject(),
    Type(() => Change),
    ValidateNested(),
    Optional(),
  );
}

/** `PUT /integrations/webhooks`: the keys given change, the others stay. */
export class UpdateStaticWebhooksRequest implements Partial<
  Record<StaticWebhookKey, StaticWebhookChange>
> {
  @ChangeOf('scheduled')
  scheduled?: StaticWebhookChange;

  @ChangeOf('rescheduled')
  rescheduled?: StaticWebhookChange;

  @ChangeOf('canceled')
  canceled?: StaticWebhookChange;

  @ChangeOf('changed')
  changed?: StaticWebhookChange;

  @ChangeOf('orderCompleted')
  orderCompleted?: StaticWebhookChange;
}
