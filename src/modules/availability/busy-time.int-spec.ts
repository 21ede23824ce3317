import { DataSource } from 'typeorm';
import { testConfig } from '../../../test/support/test-environment';
import { ENTITY_SOURCES, dataSourceOptions } from '../../common/database/data-source-options';
import { prepareServer } from '../../common/database/schema';
import { MAX_BUSY_SPAN_MINUTES, readBusyTime } from './busy-time';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/**
 * The read behind every availability answer costs what the range holds: on a calendar with two
 * years of appointments, the appointments of one day come from a bounded range of
 * `idx_appointments_calendar_busy`, not from a scan of the calendar's history.
 */
describe('readBusyTime (MySQL)', () => {
  let dataSource: DataSource;
  const calendarId = 900_001;
  const base = Date.UTC(2031, 0, 1);

  beforeAll(async () => {
    const { db } = testConfig();
    const type = await prepareServer(db, { createDatabase: false });
    dataSource = await new DataSource({
      ...dataSourceOptions(db, type),
      entities: [ENTITY_SOURCES],
    }).initialize();
    await dataSource.query(
      `INSERT INTO calendars (id, account_id, name, description, timezone, hours, overrides, created_at, updated_at)
       VALUES (?, 1, 'History', '', 'UTC', '{}', '{}', NOW(3), NOW(3))`,
      [calendarId],
    );
    // Two years of history: one 30-minute appointment every 2 hours.
    const rows: unknown[][] = [];
    for (let at = base - 365 * DAY; at < base + 365 * DAY; at += 120 * MINUTE)
      rows.push([
        1,
        1,
        calendarId,
        new Date(at),
        new Date(at + 30 * MINUTE),
        new Date(at),
        new Date(at + 30 * MINUTE),
        new Date(),
        new Date(),
      ]);
    for (let i = 0; i < rows.length; i += 2000)
      await dataSource.query(
        'INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at, busy_from, busy_until, created_at, updated_at) VALUES ?',
        [rows.slice(i, i + 2000)],
      );
    await dataSource.query('ANALYZE TABLE appointments');
  });

  afterAll(async () => {
    await dataSource.query('DELETE FROM appointments WHERE calendar_id = ?', [calendarId]);
    await dataSource.query('DELETE FROM calendars WHERE id = ?', [calendarId]);
    await dataSource.destroy();
  });

  it("reads a day's busy time, and appointments that started before it and last into it", async () => {
    const busy = await readBusyTime(dataSource.manager, [calendarId], {
      from: base + 15 * MINUTE,
      until: base + DAY,
    });
    const spans = busy.get(calendarId)!;
    expect(spans).toHaveLength(12);
    expect(spans[0]).toEqual({ from: base, until: base + 30 * MINUTE });
  });

  it('reads the appointments through a range of the calendar index bounded on both sides', async () => {
    const [plan] = await dataSource.query<{ key: string; type: string; rows: number | string }[]>(
      `EXPLAIN SELECT a.busy_from FROM appointments a
        WHERE a.calendar_id IN (?) AND a.busy_from >= ? AND a.busy_from < ? AND a.busy_until > ?
          AND a.canceled = 0`,
      [
        [calendarId],
        new Date(base - MAX_BUSY_SPAN_MINUTES * MINUTE),
        new Date(base + DAY),
        new Date(base),
      ],
    );
    expect(plan.key).toBe('idx_appointments_calendar_busy');
    expect(plan.type).toBe('range');
    // About 4 days of 12 appointments, of the calendar's 8,760.
    expect(Number(plan.rows)).toBeLessThan(200);
  });
});
