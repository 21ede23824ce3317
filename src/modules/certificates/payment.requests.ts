import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { IsMultiLine, Optional, Trim } from '../../common/http/attributes';
import { snake } from '../../common/http/http.errors';
import { MAX_CENTS, formatCents, isSignedMoney, toSignedCents } from '../../common/money/money';
import { PAYMENT_PROCESSORS, type PaymentProcessor } from './payment.entity';

/** A transaction id: what processors write (`ch_3PqL2x`, `pi_…`, a terminal's receipt number). */
const TRANSACTION_ID = /^[\x21-\x7e]{1,255}$/;
const MAX_REASON_LENGTH = 1000;

const AMOUNT_RULE =
  `an amount of money other than 0 with at most two decimals, ` +
  `from -${formatCents(MAX_CENTS)} to ${formatCents(MAX_CENTS)} (a refund is negative)`;

/** The error of an attribute that breaks its rule: `invalid_<attribute>`, the rule in words. */
function invalid(attribute: string, rule: string) {
  const message = `Attribute "${attribute}" must be ${rule}.`;
  return { message, context: { code: `invalid_${snake(attribute)}`, message } };
}

/**
 * `POST /{appointments|orders}/{id}/payments`: a payment (amount above 0) or a refund (below 0, with
 * a reason). The rules that need the ledger (a refund within what was paid, a transaction id not
 * used elsewhere) are the ledger's.
 */
export class RecordPaymentRequest {
  @ApiProperty({
    description: `The amount: ${AMOUNT_RULE}. A number or a string.`,
    oneOf: [{ type: 'string', pattern: '^-?\\d{1,10}(\\.\\d{1,2})?$' }, { type: 'number' }],
    example: '25.00',
  })
  @ValidateBy(
    {
      name: 'isPaymentAmount',
      validator: { validate: (value) => isSignedMoney(value) && toSignedCents(value) !== 0 },
    },
    invalid('amount', AMOUNT_RULE),
  )
  @IsDefined()
  amount!: number | string;

  @ApiProperty({
    description:
      'Who moved the money: the business itself (`cash`, `check`, `card-terminal`, ' +
      '`bank-transfer`), an online processor, or `external` for anything else. Read without case.',
    enum: PAYMENT_PROCESSORS,
    example: 'card-terminal',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @IsIn(PAYMENT_PROCESSORS, invalid('processor', `one of ${PAYMENT_PROCESSORS.join(', ')}`))
  @IsString()
  @IsDefined()
  processor!: PaymentProcessor;

  @ApiPropertyOptional({
    description:
      "The processor's id of the transaction: the payment's key. Sent again for the same " +
      'appointment or order with the same amount and processor, it answers the payment already ' +
      'recorded (nothing is counted twice); with another amount or processor, or for another ' +
      'appointment or order of the account, it is 409 `transaction_id_reused`. Left out, the ' +
      'service makes one up (`pay_…`) and a retry records a second payment.',
    pattern: TRANSACTION_ID.source,
    maxLength: 255,
    example: 'ch_3PqL2xJ32o4TcWuA',
  })
  @Matches(TRANSACTION_ID, invalid('transactionID', '1 to 255 visible ASCII characters'))
  @IsString()
  @Optional()
  transactionID?: string;

  @ApiPropertyOptional({
    description:
      'Why: required for a refund, optional for a payment. Text that may span lines, without ' +
      'other control or bidi characters.',
    maxLength: MAX_REASON_LENGTH,
    example: 'Session cut short',
  })
  @Trim()
  @IsMultiLine()
  @MaxLength(MAX_REASON_LENGTH)
  @IsString()
  @Optional()
  reason?: string;
}

/** What the ledger records of the request. */
export interface NewPayment {
  amountCents: number;
  processor: PaymentProcessor;
  transactionId: string | undefined;
  reason: string;
}

export function newPayment(request: RecordPaymentRequest): NewPayment {
  return {
    amountCents: toSignedCents(request.amount),
    processor: request.processor,
    transactionId: request.transactionID,
    reason: request.reason ?? '',
  };
}
