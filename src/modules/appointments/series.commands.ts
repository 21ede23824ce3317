import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DomainEvent } from '../../common/outbox/domain-event';
import type { Account } from '../accounts';
import { AppointmentChanges, type ChangeMode } from './appointment-changes';
import { AppointmentExtras } from './appointment-extras';
import { clientMayChange } from './appointment.view';
import { AppointmentRepository } from './appointment.repository';
import { cancelRow } from './cancel-appointment.handler';
import type { CancelAppointmentRequest } from './cancel-appointment.requests';
import { SeriesRenderer } from './series-renderer';
import { SeriesRepository } from './series.repository';
import type { SeriesView } from './series.view';

/** `PUT /appointment-series/{id}/cancel`: the rest of the series canceled. */
export class CancelSeriesCommand extends Command<SeriesView> {
  constructor(
    readonly account: Account,
    readonly seriesId: number,
    readonly request: CancelAppointmentRequest,
    readonly mode: ChangeMode,
  ) {
    super();
  }
}

/**
 * Cancels, in one transaction, every occurrence of the series that has not started and is not
 * canceled, each as a single cancel does (its own `appointment.canceled`): the series' row locked
 * first, then its appointments, so two cancels run one after the other. A client leaves the
 * occurrences it may no longer cancel (within `clientChangeMinHours` of their start); an admin
 * cancels every one to come.
 */
@CommandHandler(CancelSeriesCommand)
export class CancelSeriesHandler implements ICommandHandler<CancelSeriesCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly series: SeriesRepository,
    private readonly appointments: AppointmentRepository,
    private readonly extras: AppointmentExtras,
    private readonly renderer: SeriesRenderer,
  ) {}

  async execute({ account, seriesId, request, mode }: CancelSeriesCommand): Promise<SeriesView> {
    await this.changes.transact(account.id, async (tx) => {
      const series = await this.series.find(account.id, seriesId, { tx, forUpdate: true });
      const now = new Date();
      const events: DomainEvent[] = [];
      for (const appointment of await this.series.occurrences(series.id, tx, true)) {
        if (appointment.canceled || appointment.startsAt <= now) continue;
        const minHours = mode.admin ? 0 : account.clientChangeMinHours;
        if (!clientMayChange(appointment, minHours, now.getTime())) continue;
        events.push(
          await cancelRow(tx, this.appointments, this.extras, appointment, request, mode, now),
        );
      }
      return { result: undefined, events };
    });
    return this.renderer.view(account.id, seriesId);
  }
}
