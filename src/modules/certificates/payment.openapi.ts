import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { MAX_PAYMENTS } from './payment-ledger';
import { RecordPaymentRequest } from './payment.requests';
import { PAYMENT_VIEW } from './payment.view';
import { ApiView } from '../../common/openapi/view-schema';

/* The payments of an appointment and of an order in OpenAPI: one ledger, each its refusals. */

type Subject = 'appointment' | 'order';

const idParam = (subject: Subject) =>
  ApiParam({
    name: 'id',
    description: `The ${subject}'s id.`,
    schema: { type: 'integer', minimum: 1, example: 42 },
  });

const ACCESS_ERRORS = { 403: ['forbidden'], 404: ['not_found'] } as const;

/** `GET /{appointments|orders}/{id}/payments`. */
export function ApiListPayments(subject: Subject) {
  return applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: `The payments and refunds of an ${subject}`,
      description:
        "Oldest first, in the reference service's shape (`transactionID`, `created`, `processor`, " +
        "`amount`) plus `reason`. Another account's " +
        `${subject} is 403, an id that exists nowhere 404.`,
    }),
    idParam(subject),
    ApiView(PAYMENT_VIEW, { list: true, description: 'Its payments, oldest first.' }),
    ApiErrors(ACCESS_ERRORS),
  );
}

/** `POST /{appointments|orders}/{id}/payments`. */
export function ApiRecordPayment(subject: Subject, rules: string, codes: readonly string[] = []) {
  return applyDecorators(
    ApiBearerAuth(),
    ApiOperation({
      summary: `Records a payment or a refund of an ${subject}`,
      description:
        `A payment (amount above 0) or a refund (below 0, with a \`reason\`; never more than was ` +
        `paid). ${rules} The ${subject}'s row is locked while it is recorded: payments sent at ` +
        `once are all counted. A \`transactionID\` sent again answers the payment it recorded ` +
        `(200, nothing counted twice). At most ${MAX_PAYMENTS} payments an ${subject}.`,
    }),
    idParam(subject),
    ApiBody({ type: RecordPaymentRequest }),
    ApiView(PAYMENT_VIEW, { description: 'The payment recorded (or recorded before).' }),
    ApiErrors({
      400: [
        'bad_request',
        'required_amount',
        'invalid_amount',
        'required_processor',
        'invalid_processor',
        'invalid_transaction_id',
        'invalid_reason',
        'required_reason',
        'refund_exceeds_paid',
        'too_many_payments',
        ...codes,
      ],
      ...ACCESS_ERRORS,
      409: ['transaction_id_reused'],
      413: ['payload_too_large'],
      415: ['unsupported_media_type'],
    }),
  );
}
