import { WEBHOOK_ACTIONS } from './webhook-subscription.entity';

/* The deliveries this service sends, as OpenAPI 3.1 `webhooks` (webhookBody, signatureHeaders). */

const header = (description: string, example: string) => ({
  required: true,
  description,
  schema: { type: 'string', example },
});

const SIGNATURE_HEADERS = {
  'x-service-signature': header(
    "base64(HMAC-SHA256(the account's API key, the raw body)): compute it and compare.",
    'Jb8b3mKp2x0eS0yS0G9nN7Xh7V8b1QF1m8bV0m2g7lU=',
  ),
  'webhook-id': header(
    'Standard Webhooks: the message id, the same on every retry (deduplicate on it).',
    'msg_1042_7',
  ),
  'webhook-timestamp': header('Standard Webhooks: seconds since the epoch.', '1780502400'),
  'webhook-signature': header(
    'Standard Webhooks: `v1,` + base64(HMAC-SHA256(API key, `{id}.{timestamp}.{body}`)).',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
};

const RECEIVED = {
  '200': { description: 'Received. Anything but an HTTP 500 or a connection error is final.' },
  '500': { description: 'Retried after 2 s, 30 s, 1 min, 5 min, 10 min … 12 h.' },
};

function delivery(
  operationId: string,
  summary: string,
  actions: readonly string[],
  appointment: boolean,
) {
  const properties: Record<string, unknown> = {
    action: { type: 'string', enum: [...actions] },
    id: {
      type: 'string',
      pattern: '^\\d+$',
      description: appointment ? "The appointment's id." : "The order's id.",
      example: '54321',
    },
  };
  if (appointment) {
    properties.calendarID = { type: 'string', pattern: '^\\d+$', example: '7' };
    properties.appointmentTypeID = { type: 'string', pattern: '^\\d+$', example: '1' };
  }
  return {
    post: {
      operationId,
      summary,
      // The receiver checks the signature headers; the service sends no credentials.
      security: [],
      description:
        'A form-encoded POST to the receiver URL of a static webhook or a dynamic subscription. ' +
        'Fetch the details through the API (GET /appointments/{id} or GET /orders/{id}).',
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, spec]) => ({
        name,
        in: 'header',
        ...spec,
      })),
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: Object.keys(properties),
              properties,
            },
          },
        },
      },
      responses: RECEIVED,
    },
  };
}

const APPOINTMENT_ACTIONS = WEBHOOK_ACTIONS.filter((action) => action !== 'order.completed');

/** The `webhooks` of the OpenAPI document. */
export const WEBHOOKS = {
  appointment: delivery(
    'appointmentWebhook',
    'An appointment was scheduled, rescheduled, canceled or changed',
    APPOINTMENT_ACTIONS,
    true,
  ),
  orderCompleted: delivery(
    'orderCompletedWebhook',
    'An order was completed',
    ['order.completed'],
    false,
  ),
};
