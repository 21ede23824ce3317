import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount } from '../support/test-app';

const ZONE = 'America/New_York';
const FIRST_SLOT = DateTime.fromISO('2030-06-03T08:00', { zone: ZONE }); // a Monday
const SLOTS_PER_DAY = 24; // 08:00-20:00, every 30 minutes

/** An account of a test's own, with a calendar open on Mondays and a 30-minute type to book. */
export interface Shop {
  account: TestAccount;
  api: ApiClient;
  calendar: number;
  type: number;
  /** Slots used so far (see nextSlot). */
  slot: number;
}

/** What a booking answers that its webhooks carry. */
export interface Booked {
  id: number;
  calendarID: number;
  appointmentTypeID: number;
}

/** A shop of a new account, or of `account` (e.g. an enterprise's member). */
export async function openShop(app: NestFastifyApplication, owner?: TestAccount): Promise<Shop> {
  const account = owner ?? (await createAccount(app));
  const api = apiClient(app, account);
  const calendar = await createCalendar(api, {
    timezone: ZONE,
    hours: { monday: [{ start: '08:00', end: '20:00' }] },
  });
  const type = await createAppointmentType(api, {
    duration: 30,
    calendarIDs: [calendar],
    maxDaysInAdvance: 3650,
  });
  return { account, api, calendar, type, slot: 0 };
}

/** The shop's next free slot (each is used once). */
export function nextSlot(shop: Shop): string {
  const n = shop.slot++;
  return FIRST_SLOT.plus({
    weeks: Math.floor(n / SLOTS_PER_DAY),
    minutes: 30 * (n % SLOTS_PER_DAY),
  }).toISO({ suppressMilliseconds: true })!;
}

/** Books the shop's next free slot; fails loudly when refused. */
export async function book(shop: Shop): Promise<Booked> {
  const { status, body } = await shop.api.post('/appointments', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    appointmentTypeID: shop.type,
    calendarID: shop.calendar,
    datetime: nextSlot(shop),
  });
  if (status !== 200) throw new Error(`booking → ${status} ${JSON.stringify(body)}`);
  return body as Booked;
}
