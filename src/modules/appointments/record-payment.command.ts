import { AccountItemCommand } from '../../common/cqrs/account-messages';
import type { NewPayment, PaymentView } from '../certificates';

/** `POST /appointments/{id}/payments`: a payment or a refund, as the owner or a partner app records it. */
export class RecordPaymentCommand extends AccountItemCommand<NewPayment, PaymentView> {}
