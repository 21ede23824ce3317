import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
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
import { AssignmentStatsController } from './assignment-stats.controller';
import * as assignmentStatsQuery from './assignment-stats.query';
import { AssignmentStatsRepository } from './assignment-stats.repository';
import * as appointmentQueries from './appointment.queries';
import { AppointmentRepository } from './appointment.repository';
import { AppointmentViewRepository } from './appointment-view.repository';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import * as bookAppointmentHandler from './book-appointment.handler';
import * as cancelAppointmentHandler from './cancel-appointment.handler';
import { IdempotencyKey } from './idempotency-key.entity';
import { IdempotencyKeys } from './idempotency-keys';
import { PastFormAnswers } from './past-form-answers';
import * as recordPaymentHandler from './record-payment.handler';
import * as rescheduleAppointmentHandler from './reschedule-appointment.handler';
import * as updateAppointmentHandler from './update-appointment.handler';
import { AppointmentSeries } from './appointment-series.entity';
import * as bookSeriesHandler from './book-series.handler';
import { SeriesController } from './series.controller';
import * as seriesCommands from './series.commands';
import { SeriesPlacement } from './series-placement';
import * as seriesQueries from './series.queries';
import { SeriesRenderer } from './series-renderer';
import { SeriesRepository } from './series.repository';

/** Booking and the appointment's lifecycle. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Appointment,
      AppointmentFieldValue,
      AppointmentSeries,
      IdempotencyKey,
    ]),
    OutboxModule,
    AccountsModule,
    AvailabilityModule,
    CertificatesModule,
    FormsModule,
  ],
  controllers: [
    AppointmentsController,
    AppointmentPaymentsController,
    SeriesController,
    AssignmentStatsController,
  ],
  providers: [
    AppointmentRenderer,
    AssignmentStatsRepository,
    AppointmentExtras,
    AppointmentChanges,
    AppointmentRepository,
    AppointmentViewRepository,
    IdempotencyKeyRepository,
    PastFormAnswers,
    IdempotencyKeys,
    SeriesRepository,
    SeriesRenderer,
    SeriesPlacement,
    ...handlersOf(
      appointmentQueries,
      bookAppointmentHandler,
      cancelAppointmentHandler,
      recordPaymentHandler,
      rescheduleAppointmentHandler,
      updateAppointmentHandler,
      bookSeriesHandler,
      seriesCommands,
      seriesQueries,
      assignmentStatsQuery,
    ),
  ],
})
export class AppointmentsModule {}
