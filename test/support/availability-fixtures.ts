import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { MINUTE } from '../../src/common/time/durations';
import { Appointment } from '../../src/modules/availability';

export interface BookedTime {
  accountId: number;
  appointmentTypeId: number;
  calendarId: number;
  /** An instant with its offset: `2030-06-03T10:00:00-04:00`. */
  start: string;
  minutes: number;
  paddingBefore?: number;
  paddingAfter?: number;
  classId?: number | null;
  canceled?: boolean;
}

/**
 * Writes an appointment row as booking will (the part availability reads), for tests of
 * availability before and beside the booking endpoint. Returns its id.
 */
export async function insertAppointment(
  app: NestFastifyApplication,
  booked: BookedTime,
): Promise<number> {
  const startsAt = new Date(booked.start);
  const endsAt = new Date(startsAt.getTime() + booked.minutes * MINUTE);
  const now = new Date();
  const result = await app
    .get(DataSource)
    .getRepository(Appointment)
    .insert({
      accountId: booked.accountId,
      appointmentTypeId: booked.appointmentTypeId,
      calendarId: booked.calendarId,
      classId: booked.classId ?? null,
      startsAt,
      endsAt,
      busyFrom: new Date(startsAt.getTime() - (booked.paddingBefore ?? 0) * MINUTE),
      busyUntil: new Date(endsAt.getTime() + (booked.paddingAfter ?? 0) * MINUTE),
      canceled: booked.canceled ?? false,
      createdAt: now,
      updatedAt: now,
    });
  return (result.identifiers[0] as { id: number }).id;
}
