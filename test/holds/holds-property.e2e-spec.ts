import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, MONDAY, client, expireHold, offeredTimes } from './hold-fixtures';

const MORNING = { monday: [{ start: '09:00', end: '12:00' }] };
/** Half-hour slots of the morning: 09:00 to 11:30. */
const SLOTS = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'];

type Step =
  | { kind: 'hold'; slot: number; withToken: boolean }
  | { kind: 'book'; slot: number; withToken: boolean }
  | { kind: 'release' | 'expire' | 'cancel'; pick: number };

const step = fc.oneof(
  fc.record({
    kind: fc.constantFrom('hold' as const, 'book' as const),
    slot: fc.nat(SLOTS.length - 1),
    withToken: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom('release' as const, 'expire' as const, 'cancel' as const),
    pick: fc.nat(20),
  }),
) as fc.Arbitrary<Step>;

/**
 * For random sequences of hold, release, expire, book and cancel, each answer is the one the model
 * predicts, and after every step `/availability/times` offers exactly the slots that no live
 * appointment or live hold covers.
 */
describe('slot holds: availability is what live appointments and holds leave (property, e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
  });

  afterAll(() => app.close());

  it('holds for every sequence tried', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        const calendar = await createCalendar(api, { hours: MORNING });
        const type = await createAppointmentType(api, {
          duration: 30,
          calendarIDs: [calendar],
          ...HORIZON,
        });
        const at = (slot: number) => ({
          appointmentTypeID: type,
          calendarID: calendar,
          datetime: `${MONDAY}T${SLOTS[slot]}`,
        });
        const holds = new Map<number, { id: number; token: string }>();
        const booked = new Map<number, number>();
        const free = (slot: number) => !holds.has(slot) && !booked.has(slot);
        const nth = <T>(map: Map<number, T>, pick: number): [number, T] | undefined =>
          [...map.entries()][pick % Math.max(1, map.size)];

        for (const s of steps) {
          if (s.kind === 'hold') {
            const res = await api.post('/slot-holds', at(s.slot));
            expect(res.status).toBe(free(s.slot) ? 200 : 400);
            if (res.status === 200) holds.set(s.slot, res.body as { id: number; token: string });
          } else if (s.kind === 'book') {
            const hold = s.withToken ? holds.get(s.slot) : undefined;
            const res = await api.post('/appointments', {
              ...client,
              ...at(s.slot),
              ...(hold ? { holdToken: hold.token } : {}),
            });
            const expected = hold ? !booked.has(s.slot) : free(s.slot);
            expect(res.status).toBe(expected ? 200 : 400);
            if (res.status === 200) {
              booked.set(s.slot, (res.body as { id: number }).id);
              if (hold) holds.delete(s.slot);
            }
          } else if (s.kind === 'cancel') {
            const found = nth(booked, s.pick);
            if (!found) continue;
            expect((await api.put(`/appointments/${found[1]}/cancel`, {})).status).toBe(200);
            booked.delete(found[0]);
          } else {
            const found = nth(holds, s.pick);
            if (!found) continue;
            if (s.kind === 'release')
              expect((await api.delete(`/slot-holds/${found[1].id}`)).status).toBe(204);
            else await expireHold(db, found[1].id);
            holds.delete(found[0]);
          }
          expect(await offeredTimes(api, type, calendar)).toEqual(
            SLOTS.filter((_, slot) => free(slot)),
          );
        }
      }),
      { numRuns: 25, seed: 20300603 },
    );
  });
});
