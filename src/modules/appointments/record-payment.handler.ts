import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type Payment,
  PaymentLedger,
  type PaymentView,
  retryTransactionIdRace,
  toPaymentView,
} from '../certificates';
import { AppointmentChangedEvent, eventPayload } from './appointment-events';
import { PaymentOnCanceledError } from './appointment.errors';
import { AppointmentChanges } from './appointment-changes';
import { AppointmentRepository } from './appointment.repository';
import { RecordPaymentCommand } from './record-payment.command';

/**
 * Records a payment or a refund, the appointment's row locked (payments at once count one after the
 * other); `amountPaid` follows. A transaction id sent again answers its payment, changing nothing.
 */
@CommandHandler(RecordPaymentCommand)
export class RecordPaymentHandler implements ICommandHandler<RecordPaymentCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly appointments: AppointmentRepository,
    private readonly ledger: PaymentLedger,
  ) {}

  async execute({ accountId, id, request: payment }: RecordPaymentCommand): Promise<PaymentView> {
    const subject = { kind: 'appointment', id } as const;
    const { recorded, zone } = await retryTransactionIdRace(() =>
      // No calendar is locked: a payment takes no time.
      this.changes.onLocked(accountId, id, [], async (tx, appointment) => {
        const answer = (recorded: Payment) => ({ recorded, zone: appointment.timezone });
        const previous = await this.ledger.recorded(tx, accountId, subject, payment);
        if (previous) return { result: answer(previous), events: [] };
        if (appointment.canceled && payment.amountCents > 0)
          throw new PaymentOnCanceledError(appointment.id);
        const recorded = await this.ledger.append(
          tx,
          accountId,
          subject,
          payment,
          appointment.amountPaidCents,
        );
        await this.appointments.addPayment(tx, appointment, recorded.amountCents);
        return {
          result: answer(recorded),
          events: [new AppointmentChangedEvent(accountId, eventPayload(appointment, false))],
        };
      }),
    );
    return toPaymentView(recorded, zone);
  }
}
