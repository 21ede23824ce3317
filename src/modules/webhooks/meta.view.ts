import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-subscription.entity';

/** `GET /meta`, in the reference's shape (`hooks`), plus this service's `events`. */
export class MetaView {
  @ApiProperty({
    description:
      "The IPv4 and IPv6 CIDRs webhook deliveries come from (the operator's WEBHOOK_SOURCE_CIDRS; " +
      'empty when none is announced).',
    type: [String],
    example: ['192.0.2.0/24', '2001:db8::/32'],
  })
  hooks!: string[];

  @ApiProperty({
    description:
      "This service's addition: the events a webhook subscription may name (`POST /webhooks`).",
    enum: WEBHOOK_EVENTS,
    isArray: true,
    example: [...WEBHOOK_EVENTS],
  })
  events!: WebhookEvent[];
}
