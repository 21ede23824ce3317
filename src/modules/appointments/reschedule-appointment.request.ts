import { Allow, IsString } from 'class-validator';
import { Optional } from '../../common/http/attributes';

/**
 * `PUT /appointments/{id}/reschedule`. As for booking, which attribute is missing or wrong (and in
 * what order) is the handler's.
 */
export class RescheduleAppointmentRequest {
  /** Read as booking reads it: without an offset, in the (new) calendar's zone. */
  @Allow()
  datetime?: unknown;

  /** Another calendar offering the type; the appointment's own when left out. */
  @Allow()
  calendarID?: unknown;

  /** The client's zone from now on (what times are shown in). */
  @Optional()
  @IsString()
  timezone?: string;
}
