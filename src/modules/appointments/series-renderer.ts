import { Injectable } from '@nestjs/common';
import { AppointmentRenderer } from './appointment-renderer';
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
    return {
      id: series.id,
      appointmentTypeID: series.appointmentTypeId,
      calendarID: series.calendarId,
      recurrence: {
        frequency: series.frequency,
        interval: series.interval,
        count: series.count,
      },
      appointments: await this.appointments.render(occurrences),
    };
  }
}
