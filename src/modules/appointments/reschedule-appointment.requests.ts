import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LENIENT_DATETIME_RULE } from '../../common/time/datetimes';
import { Allow, IsString } from 'class-validator';
import { IfGiven } from '../../common/http/attributes';

/** `PUT /appointments/{id}/reschedule`: as for booking, the handler checks, in order. */
export class RescheduleAppointmentRequest {
  /** Read as booking reads it: without an offset, in the (new) calendar's zone. */
  @ApiProperty({
    type: 'string',
    description: `The new start. ${LENIENT_DATETIME_RULE}`,
    example: '2030-06-03T14:30',
  })
  @Allow()
  datetime?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: "Another calendar offering the type; the appointment's own when left out.",
  })
  @Allow()
  calendarID?: unknown;

  /** The client's zone from now on (what times are shown in). */
  @IfGiven(IsString())
  timezone?: string;
}
