import {
  type ViewType,
  flag,
  id,
  int,
  list,
  oneOf,
  text,
  viewSchema,
} from '../../common/openapi/view-schema';
import { APPOINTMENT_VIEW } from './appointment.view';
import { FREQUENCIES, MAX_COUNT, MIN_COUNT } from '../catalog';
import { MAX_INTERVAL } from './series-recurrence';

export const RECURRENCE_VIEW = viewSchema(
  'SeriesRecurrence',
  {
    frequency: oneOf(FREQUENCIES, 'weekly'),
    interval: int(1, `Every how many days, weeks or months: 1–${MAX_INTERVAL} (1 when left out).`),
    count: int(6, `How many occurrences, the first included: ${MIN_COUNT}–${MAX_COUNT}.`),
  },
  "How a series repeats: each occurrence at the first one's wall-clock time in the calendar's zone.",
);

/** `POST /appointment-series`, `GET /appointment-series/{id}` and its cancel. */
export const SERIES_VIEW = viewSchema(
  'AppointmentSeries',
  {
    id: id(12),
    appointmentTypeID: id(1),
    calendarID: id(7, 'The one calendar that took every occurrence.'),
    recurrence: RECURRENCE_VIEW.ref,
    appointments: list(
      APPOINTMENT_VIEW.ref,
      'Its occurrences by start, canceled ones included, each with `seriesID`.',
    ),
  },
  'Appointments booked at once, all or nothing (docs/series.md).',
);

export type SeriesView = ViewType<typeof SERIES_VIEW>;

/** `POST /availability/check-series`: one per occurrence. */
export const CHECKED_OCCURRENCE_VIEW = viewSchema(
  'CheckedOccurrence',
  {
    datetime: text(
      '2030-06-10T10:15:00-0400',
      "The occurrence in the calendar's zone, `YYYY-MM-DDThh:mm:ss+hhmm`; without an offset for a " +
        'local time the zone skips that day (a DST change).',
    ),
    valid: flag(true, 'Whether POST /appointment-series would book it now.'),
    reason: text(
      'not_available',
      'When not valid: the `error` code POST /appointment-series would give for it.',
    ),
  },
  'One occurrence of a series asked about, and whether it is bookable.',
  ['reason'],
);

export type CheckedOccurrence = ViewType<typeof CHECKED_OCCURRENCE_VIEW>;
