import type { DataSource } from 'typeorm';
import { openTestDataSource } from '../../../test/support/test-data-source';
import type { AccountEpochs } from '../../common/database/account-epochs';
import type { RecentWrites } from '../../common/database/recent-writes';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { createRootLogger } from '../../common/logging/logging.module';
import { SlotHold, newHoldToken } from '../availability';
import { HoldSweeper } from './hold-sweeper';
import { SlotHoldRepository } from './slot-hold.repository';

/** The sweeper deletes the holds that have expired and only those (MySQL). */
describe('HoldSweeper (MySQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await openTestDataSource();
  });

  afterAll(() => dataSource.destroy());

  const hold = (calendarId: number, expiresAt: number) => {
    const start = new Date('2030-06-03T13:00:00Z');
    return dataSource.getRepository(SlotHold).save({
      accountId: 1,
      appointmentTypeId: 1,
      calendarId,
      classId: null,
      startsAt: start,
      busyFrom: start,
      busyUntil: new Date(start.getTime() + 3_600_000),
      addonIds: [],
      timezone: 'UTC',
      tokenHash: newHoldToken().hash,
      expiresAt: new Date(expiresAt),
      createdAt: new Date(),
    });
  };

  it('deletes the expired holds, keeps the live ones', async () => {
    const calendarId = 900_000 + Math.floor(Math.random() * 90_000);
    const now = Date.now();
    const expired = [await hold(calendarId, now - 60_000), await hold(calendarId, now - 1)];
    const live = await hold(calendarId, now + 60_000);
    // A sweep marks no account: the unit of work needs no epochs or read-your-writes marks.
    const work = new UnitOfWork(dataSource, {} as AccountEpochs, {} as RecentWrites);
    const holds = new SlotHoldRepository(dataSource);
    const sweeper = new HoldSweeper(work, holds, createRootLogger('silent', 'worker'));
    expect(await sweeper.sweepOnce(new Date(now))).toBeGreaterThanOrEqual(expired.length);
    const left = await dataSource.getRepository(SlotHold).findBy({ calendarId });
    expect(left.map((h) => h.id)).toEqual([live.id]);
  });
});
