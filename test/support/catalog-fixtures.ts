import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppointmentType } from '../../src/modules/catalog/appointment-type.entity';
import type { ApiClient } from './api-client';

/** Creates a resource through the API and returns its id; fails the test loudly when refused. */
async function created(api: ApiClient, path: string, body: unknown): Promise<number> {
  const res = await api.post(path, body);
  if (res.status !== 200)
    throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { id: number }).id;
}

export const createCalendar = (api: ApiClient, attributes: Record<string, unknown> = {}) =>
  created(api, '/calendars', { name: 'Room A', timezone: 'America/New_York', ...attributes });

export const createAddon = (api: ApiClient, attributes: Record<string, unknown> = {}) =>
  created(api, '/appointment-addons', { name: 'Extra', duration: 10, ...attributes });

export const createForm = (api: ApiClient, attributes: Record<string, unknown> = {}) =>
  created(api, '/forms', { name: 'Intake', ...attributes });

export const createAppointmentType = (api: ApiClient, attributes: Record<string, unknown> = {}) =>
  created(api, '/appointment-types', { name: 'Consultation', duration: 30, ...attributes });

/**
 * A 30-minute service type written directly, for specs about what links to types rather than the
 * /appointment-types endpoints; `deleted` writes it soft-deleted.
 */
export async function insertAppointmentType(
  app: INestApplication,
  accountId: number,
  options: { deleted?: boolean } = {},
): Promise<number> {
  const manager = app.get(DataSource).manager;
  const now = new Date();
  const { id } = await manager.save(
    manager.create(AppointmentType, {
      accountId,
      name: 'Haircut',
      description: '',
      duration: 30,
      kind: 'service',
      createdAt: now,
      updatedAt: now,
      deletedAt: options.deleted ? now : null,
    }),
  );
  return id;
}
