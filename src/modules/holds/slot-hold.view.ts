import { ApiProperty } from '@nestjs/swagger';
import { formatInZone } from '../../common/time/datetimes';
import type { SlotHold } from '../availability';

/** A slot hold as `GET /slot-holds/{id}` shows it. */
export class SlotHoldView {
  @ApiProperty({ example: 41 })
  id!: number;

  @ApiProperty({ example: 12 })
  appointmentTypeID!: number;

  @ApiProperty({ description: 'The calendar the time is held on.', example: 7 })
  calendarID!: number;

  @ApiProperty({
    description: "The start held, in the client's zone when given, else the calendar's.",
    example: '2030-06-03T09:00:00-0400',
  })
  datetime!: string;

  @ApiProperty({
    description: 'When the hold ends by itself unless booked, extended or released.',
    example: '2030-06-03T08:05:00-0400',
  })
  expiresAt!: string;
}

/** The answer of `POST /slot-holds`: the view and the token, given this once. */
export class CreatedSlotHoldView extends SlotHoldView {
  @ApiProperty({
    description:
      'Books the held time: `holdToken` of POST /appointments. Shown only here; only its hash ' +
      'is stored.',
    example: 'm3Lw0dV5y9bJ7hQ2xT1kP8sR4nC6aE0fG5iU3oZ7wYq',
  })
  token!: string;
}

export function toSlotHoldView(hold: SlotHold): SlotHoldView {
  return {
    id: hold.id,
    appointmentTypeID: hold.appointmentTypeId,
    calendarID: hold.calendarId,
    datetime: formatInZone(hold.startsAt, hold.timezone),
    expiresAt: formatInZone(hold.expiresAt, hold.timezone),
  };
}
