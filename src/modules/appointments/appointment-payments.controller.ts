import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import {
  ApiListPayments,
  ApiRecordPayment,
  type PaymentView,
  RecordPaymentRequest,
  newPayment,
} from '../certificates';
import { ListAppointmentPaymentsQuery } from './appointment.queries';
import { RecordPaymentCommand } from './record-payment.command';

/** An appointment's payments: the reference's list, and recording one (this service's own). */
@ApiTags('appointments')
@ApiBasicAuth()
@Controller('appointments')
export class AppointmentPaymentsController extends BusController {
  @Get(`:id${NUMERIC}/payments`)
  @ApiListPayments('appointment')
  list(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<PaymentView[]> {
    return this.queries.execute(new ListAppointmentPaymentsQuery(accountId, id));
  }

  @Post(`:id${NUMERIC}/payments`)
  @HttpCode(200)
  @ApiRecordPayment(
    'appointment',
    'The appointment\'s `amountPaid` is the sum of its payments and `paid` is "yes" once that ' +
      'covers its `priceSold` (after coupons and packages), "no" otherwise; `appointment.changed` ' +
      'is emitted. A canceled appointment takes refunds only (400 `appointment_canceled`).',
    ['appointment_canceled'],
  )
  record(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: RecordPaymentRequest,
  ): Promise<PaymentView> {
    return this.commands.execute(new RecordPaymentCommand(accountId, id, newPayment(request)));
  }
}
