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
