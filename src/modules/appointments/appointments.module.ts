import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../common/outbox/outbox.module';
import { AccountsModule } from '../accounts';
import { Appointment, AvailabilityModule } from '../availability';
import { CertificatesModule } from '../certificates';
import { FormsModule } from '../forms';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import { AppointmentExtras } from './appointment-extras';
import { AppointmentRenderer } from './appointment-renderer';
import { AppointmentPaymentsController } from './appointment-payments.controller';
import { AppointmentChanges } from './appointment-changes';
import { AppointmentsController } from './appointments.controller';
import {
  FindAppointmentHandler,
  GetAppointmentHandler,
  ListAppointmentPaymentsHandler,
  ListAppointmentsHandler,
  RenderAppointmentHandler,
} from './appointment.queries';
import { AppointmentRepository } from './appointment.repository';
import { AppointmentViewRepository } from './appointment-view.repository';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { BookAppointmentHandler } from './book-appointment.handler';
import { CancelAppointmentHandler } from './cancel-appointment.handler';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeys } from './idempotency-keys';
import { PastFormAnswers } from './past-form-answers';
import { RecordPaymentHandler } from './record-payment.handler';
import { RescheduleAppointmentHandler } from './reschedule-appointment.handler';
import { UpdateAppointmentHandler } from './update-appointment.handler';

/** Booking and the appointment's lifecycle. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Appointment, AppointmentFieldValue, IdempotencyKey]),
    OutboxModule,
    AccountsModule,
    AvailabilityModule,
    CertificatesModule,
    FormsModule,
  ],
  controllers: [AppointmentsController, AppointmentPaymentsController],
  providers: [
    AppointmentRenderer,
    AppointmentExtras,
    AppointmentChanges,
    AppointmentRepository,
    AppointmentViewRepository,
    IdempotencyKeyRepository,
    FindAppointmentHandler,
    GetAppointmentHandler,
    ListAppointmentPaymentsHandler,
    ListAppointmentsHandler,
    RenderAppointmentHandler,
    PastFormAnswers,
    BookAppointmentHandler,
    IdempotencyKeys,
    UpdateAppointmentHandler,
    CancelAppointmentHandler,
    RescheduleAppointmentHandler,
    RecordPaymentHandler,
  ],
})
export class AppointmentsModule {}
