import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../common/outbox/outbox.module';
import { CertificatesModule } from '../certificates/certificates.module';
import { FormsModule } from '../forms/forms.module';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import { Appointment } from './appointment.entity';
import { AppointmentViews } from './appointment-views';
import { AppointmentsController } from './appointments.controller';
import { AppointmentsQueries } from './appointments.queries';
import { BookAppointmentHandler } from './book-appointment.handler';
import { CancelAppointmentHandler } from './cancel-appointment.handler';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeys } from './idempotency-keys';
import { RescheduleAppointmentHandler } from './reschedule-appointment.handler';
import { UpdateAppointmentHandler } from './update-appointment.handler';

/** Booking and the appointment's lifecycle. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Appointment, AppointmentFieldValue, IdempotencyKey]),
    OutboxModule,
    CertificatesModule,
    FormsModule,
  ],
  controllers: [AppointmentsController],
  providers: [
    AppointmentViews,
    AppointmentsQueries,
    BookAppointmentHandler,
    IdempotencyKeys,
    UpdateAppointmentHandler,
    CancelAppointmentHandler,
    RescheduleAppointmentHandler,
  ],
})
export class AppointmentsModule {}
