import type { DataSource } from 'typeorm';
import { openTestDataSource } from '../../../test/support/test-data-source';
import { Metrics } from '../metrics/metrics';
import type { AccountEpochs } from './account-epochs';
import type { RecentWrites } from './recent-writes';
import { UnitOfWork } from './unit-of-work';

/**
 * A unit of work that loses a deadlock on the real MariaDB is run again whole, and the retry is
 * counted (`db_transaction_retries_total`): two units lock the same two rows in opposite orders,
 * each waiting for the other's first lock, so InnoDB rolls one back; both end committed.
 */
describe('UnitOfWork: lock conflicts retried and counted (MySQL)', () => {
  let db: DataSource;
  // A database of its own: the schema tests list the test database's tables meanwhile.
  const schema = `uow_deadlock_${process.pid}_test`;
  const table = `${schema}.rows_locked`;

  beforeAll(async () => {
    db = await openTestDataSource();
    await db.query(`CREATE DATABASE IF NOT EXISTS ${schema}`);
    await db.query(`CREATE TABLE ${table} (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB`);
    await db.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  afterAll(async () => {
    await db.query(`DROP DATABASE IF EXISTS ${schema}`);
    await db.destroy();
  });

  it('runs the deadlock victim again and counts it', async () => {
    const metrics = new Metrics();
    // Account marks are made only for an account: none here (null), so neither is reached.
    const unitOfWork = new UnitOfWork(
      db,
      {} as AccountEpochs,
      {} as RecentWrites,
      undefined,
      metrics,
    );
    let arrived = 0;
    let release!: () => void;
    const barrier = new Promise<void>((resolve) => (release = resolve));
    const unit = (first: number, second: number) =>
      unitOfWork.run(null, async (tx) => {
        await tx.query(`UPDATE ${table} SET v = v + 1 WHERE id = ?`, [first]);
        // The first try of each waits for the other's first lock; a retry goes straight on.
        if (++arrived <= 2) {
          if (arrived === 2) release();
          await barrier;
        }
        await tx.query(`UPDATE ${table} SET v = v + 1 WHERE id = ?`, [second]);
        return 'committed';
      });
    expect(await Promise.all([unit(1, 2), unit(2, 1)])).toEqual(['committed', 'committed']);
    const rows = await db.query<{ v: number }[]>(`SELECT v FROM ${table} ORDER BY id`);
    expect(rows.map((r) => Number(r.v))).toEqual([2, 2]);
    const scraped = (await metrics.scrape()).body;
    expect(scraped).toContain('db_transaction_retries_total{reason="deadlock"} 1');
  });
});
