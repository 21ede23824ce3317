import { Type } from 'class-transformer';
import { Equals, IsObject, IsString, ValidateNested } from 'class-validator';
import { Optional, OptionalNullable, Trim } from '../../common/http/attributes';
import type { StaticWebhookKey } from './webhook-subscription.entity';
import { invalidStatus, invalidStaticTarget } from './webhooks.errors';

/** One key of `PUT /integrations/webhooks`: what to do with the static webhook of that action. */
export interface StaticWebhookChange {
  /** A URL sets or replaces the target; null or "" removes the webhook. */
  target?: string | null;
  /** `active` re-enables a disabled webhook. */
  status?: 'active';
}

/** The change of one key, its errors naming the attribute in full (`scheduled.target`). */
function changeOf(key: StaticWebhookKey) {
  class Change implements StaticWebhookChange {
    @Trim()
    @OptionalNullable()
    @IsString(invalidStaticTarget(`${key}.target`))
    target?: string | null;

    @Optional()
    @Equals('active', invalidStatus(`${key}.status`))
    status?: 'active';
  }
  return Change;
}

const ScheduledChange = changeOf('scheduled');
const RescheduledChange = changeOf('rescheduled');
const CanceledChange = changeOf('canceled');
const ChangedChange = changeOf('changed');
const OrderCompletedChange = changeOf('orderCompleted');

/** `PUT /integrations/webhooks`: the keys given change, the others stay. */
export class UpdateStaticWebhooksRequest implements Partial<
  Record<StaticWebhookKey, StaticWebhookChange>
> {
  @Optional()
  @ValidateNested()
  @Type(() => ScheduledChange)
  @IsObject()
  scheduled?: StaticWebhookChange;

  @Optional()
  @ValidateNested()
  @Type(() => RescheduledChange)
  @IsObject()
  rescheduled?: StaticWebhookChange;

  @Optional()
  @ValidateNested()
  @Type(() => CanceledChange)
  @IsObject()
  canceled?: StaticWebhookChange;

  @Optional()
  @ValidateNested()
  @Type(() => ChangedChange)
  @IsObject()
  changed?: StaticWebhookChange;

  @Optional()
  @ValidateNested()
  @Type(() => OrderCompletedChange)
  @IsObject()
  orderCompleted?: StaticWebhookChange;
}
