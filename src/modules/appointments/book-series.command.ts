import { Command } from '@nestjs/cqrs';
import type { Account } from '../accounts';
import type { BookingMode } from './book-appointment.requests';
import type { BookSeriesRequest } from './book-series.requests';
import type { SeriesView } from './series.view';

/** `POST /appointment-series`. */
export class BookSeriesCommand extends Command<SeriesView> {
  constructor(
    readonly account: Account,
    readonly request: BookSeriesRequest,
    readonly mode: BookingMode,
    /** The `Idempotency-Key` header as sent (undefined without one). */
    readonly idempotencyKey?: unknown,
  ) {
    super();
  }
}
