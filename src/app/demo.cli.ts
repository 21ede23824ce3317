import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DateTime } from 'luxon';
import { Secrets } from '../common/crypto/secrets';
import {
  type AccountCredentials,
  CreateAccountCommand,
  FindAccountByEmailQuery,
  assertEmail,
} from '../modules/accounts';
import {
  CreateAddonCommand,
  CreateAppointmentTypeCommand,
  CreateCalendarCommand,
  CreateClassSessionCommand,
  CreateLabelCommand,
  CreateProductCommand,
  ListCalendarsQuery,
} from '../modules/catalog';
import { CreateCouponCommand } from '../modules/certificates';
import { CreateFormCommand } from '../modules/forms';
import { type CliCommand, optionalString } from '../common/cli/cli-command';
import type { INestApplicationContext } from '@nestjs/common';

export const DEFAULT_DEMO_EMAIL = 'demo@example.com';
const DEMO_TIMEZONE = 'America/New_York';

/**
 * A demo account with a catalog to try the API on: two calendars in different zones, a service type
 * with a form and an addon, a class type with sessions in the coming days, a label, a package and a
 * coupon. Run it again and it reuses the account (its key is the same) without adding anything
 * (`seeded: false`).
 */
export async function seedDemo(app: INestApplicationContext, email: string) {
  const queries = app.get(QueryBus);
  const commands = app.get(CommandBus);
  const existing = await queries.execute(new FindAccountByEmailQuery(email));
  const credentials: AccountCredentials = existing
    ? { id: existing.id, apiKey: app.get(Secrets).decrypt(existing.apiKeyEncrypted) }
    : await commands.execute(
        new CreateAccountCommand({ email, name: 'Demo Studio', timezone: DEMO_TIMEZONE }),
      );
  const accountId = credentials.id;
  if ((await queries.execute(new ListCalendarsQuery(accountId))).length > 0)
    return { ...credentials, email, seeded: false };

  const newYork = await commands.execute(
    new CreateCalendarCommand(accountId, DEMO_TIMEZONE, {
      name: 'Alex (New York)',
      email: 'alex@example.com',
      location: '5th Avenue studio',
      timezone: 'America/New_York',
      hours: {
        monday: [
          { start: '09:00', end: '12:00' },
          { start: '13:00', end: '17:00' },
        ],
        tuesday: [{ start: '09:00', end: '17:00' }],
        wednesday: [{ start: '09:00', end: '17:00' }],
        thursday: [{ start: '12:00', end: '20:00' }],
        friday: [{ start: '09:00', end: '15:00' }],
      },
      overrides: { [nextChristmas()]: [] },
    }),
  );
  const london = await commands.execute(
    new CreateCalendarCommand(accountId, DEMO_TIMEZONE, {
      name: 'Sam (London)',
      email: 'sam@example.com',
      location: 'Shoreditch',
      timezone: 'Europe/London',
      hours: Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((day) => [
          day,
          [{ start: '08:00', end: '18:00' }],
        ]),
      ),
    }),
  );

  const intake = await commands.execute(
    new CreateFormCommand(accountId, {
      name: 'Client intake',
      description: 'A few questions before your first visit.',
      fields: [
        {
          name: 'Hair type',
          type: 'dropdown',
          required: true,
          options: ['Straight', 'Wavy', 'Curly'],
        },
        { name: 'Interested in', type: 'checkboxlist', options: ['Color', 'Cut', 'Styling'] },
        { name: 'First visit?', type: 'yesno', required: true },
        { name: 'Reference photo (link)', type: 'file' },
        { name: 'Anything we should know?', type: 'textarea' },
      ],
    }),
  );
  const conditioning = await commands.execute(
    new CreateAddonCommand(accountId, { name: 'Deep conditioning', duration: 15, price: '15.00' }),
  );
  await commands.execute(new CreateLabelCommand(accountId, { name: 'VIP', color: 'purple' }));

  const haircut = await commands.execute(
    new CreateAppointmentTypeCommand(accountId, {
      name: 'Haircut',
      description: 'Wash, cut and style.',
      duration: 45,
      price: '40.00',
      category: 'Hair',
      color: '#E0A030',
      paddingAfter: 15,
      slotInterval: 15,
      calendarIDs: [newYork.id, london.id],
      addonIDs: [conditioning.id],
      formIDs: [intake.id],
    }),
  );
  const yoga = await commands.execute(
    new CreateAppointmentTypeCommand(accountId, {
      name: 'Morning yoga',
      description: 'An hour of vinyasa for all levels.',
      duration: 60,
      price: '20.00',
      category: 'Classes',
      color: '#3D9970',
      type: 'class',
      classSize: 10,
      calendarIDs: [london.id],
    }),
  );
  const today = DateTime.now().setZone('Europe/London').startOf('day');
  for (let day = 1; day <= 5; day++) {
    await commands.execute(
      new CreateClassSessionCommand(accountId, {
        appointmentTypeID: yoga.id,
        calendarID: london.id,
        datetime: `${today.plus({ days: day }).toISODate()}T08:00`,
      }),
    );
  }

  await commands.execute(
    new CreateProductCommand(accountId, {
      name: 'Five haircuts',
      description: 'Five haircuts for the price of four and a half.',
      price: '180.00',
      type: 'appointments',
      expires: 365,
      appointmentTypeCounts: { [haircut.id]: 5 },
    }),
  );
  await commands.execute(
    new CreateCouponCommand(accountId, {
      code: 'WELCOME10',
      name: 'Welcome: 10% off',
      discountType: 'percentage',
      discountAmount: 10,
      appointmentTypeIDs: [haircut.id],
    }),
  );
  return { ...credentials, email, seeded: true };
}

/** Closed on the next Christmas Day: an override to see in `GET /calendars/{id}`. */
function nextChristmas(): string {
  const now = DateTime.now().setZone(DEMO_TIMEZONE);
  const christmas = now.set({ month: 12, day: 25 }).startOf('day');
  return (christmas < now.startOf('day') ? christmas.plus({ years: 1 }) : christmas).toISODate()!;
}

export const demoCommands: CliCommand[] = [
  {
    name: 'demo:seed',
    summary:
      'Creates (or reuses) a demo account with a catalog to try; prints its user ID and API key.',
    options: { email: { type: 'string' } },
    run: (app, o) => seedDemo(app, assertEmail(optionalString(o, 'email') ?? DEFAULT_DEMO_EMAIL)),
  },
];
