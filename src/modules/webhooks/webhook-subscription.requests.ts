import { Transform } from 'class-transformer';
import { Equals, IsDefined, IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { IfGiven, IsNotBlank, IsNotCleared, Optional, Trim } from '../../common/http/attributes';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-subscription.entity';
import { INVALID_EVENT, invalidStatus } from './webhooks.errors';

export const DEFAULT_DELIVERIES_MAX = 50;
export const MAX_DELIVERIES_MAX = 100;

/** `POST /webhooks`. The target's policy (scheme, port, address) is checked by the service. */
export class CreateWebhookRequest {
  @IsIn(WEBHOOK_EVENTS, INVALID_EVENT)
  @IsDefined()
  event!: WebhookEvent;

  @Trim()
  @IsNotBlank()
  @IsString()
  target!: string;
}

/** `PUT /webhooks/{id}`: `active`, or a new `target` (the failures were the old's), re-enables. */
export class UpdateWebhookRequest {
  @IfGiven(Equals('active', invalidStatus('status')))
  status?: 'active';

  @Trim()
  @Optional()
  @IsNotCleared()
  @IsString()
  target?: string;
}

/** `GET /webhooks/{id}/deliveries?max=`: the latest attempts first. */
export class ListDeliveriesQuery {
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  )
  @Optional()
  @Max(MAX_DELIVERIES_MAX)
  @Min(1)
  @IsInt()
  max?: number;
}
