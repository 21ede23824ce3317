import { Injectable } from '@nestjs/common';
import type { Appointment } from '../availability';
import type { AppointmentSeries } from './appointment-series.entity';
import { AppointmentRenderer, type KnownParts } from './appointment-renderer';
import type { AppointmentView } from './appointment.view';
import { SeriesRepository } from './series.repository';
import type { SeriesView } from './series.view';

/** A series as the API shows it: its row and its occurrences, rendered as Appointment objects. */
@Injectable()
export class SeriesRenderer {
  constructor(
    private readonly series: SeriesRepository,
    private readonly appointments: AppointmentRenderer,
  ) {}

  /** The account's series `id` (404; 403 another account's). */
  async view(accountId: number, id: number): Promise<SeriesView> {
    const series = await this.series.find(accountId, id);
    const occurrences = await this.series.occurrences(series.id);
    return viewOf(series, await this.appointments.render(occurrences));
  }

  /** A series just booked, from the rows written: only its answers (if any) are read again. */
  async written(
    series: SeriesRow,
    occurrences: Appointment[],
    parts: KnownParts,
  ): Promise<SeriesView> {
    return viewOf(series, await this.appointments.renderAllWritten(occurrences, parts));
  }
}

type SeriesRow = Pick<
  AppointmentSeries,
  'id' | 'appointmentTypeId' | 'calendarId' | 'frequency' | 'interval' | 'count'
>;

function viewOf(series: SeriesRow, appointments: AppointmentView[]): SeriesView {
  return {
    id: series.id,
    appointmentTypeID: series.appointmentTypeId,
    calendarID: series.calendarId,
    recurrence: { frequency: series.frequency, interval: series.interval, count: series.count },
    appointments,
  };
}
