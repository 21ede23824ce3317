import { DataSource } from 'typeorm';
import { testConfig } from '../../../test/support/test-environment';
import { dataSourceOptions } from './data-source-options';
import { useReadCommitted } from './read-committed';
import { prepareServer } from './schema';

/** Every connection of the pool, old or new, runs at READ COMMITTED without a statement per use. */
describe('useReadCommitted (MySQL)', () => {
  let dataSource: DataSource;
  const poolSize = 3;

  beforeAll(async () => {
    const { db } = testConfig();
    const type = await prepareServer(db, { createDatabase: false });
    dataSource = await new DataSource({
      ...dataSourceOptions({ ...db, poolSize: poolSize + 2 }, type),
      entities: [],
    }).initialize();
  });

  afterAll(() => dataSource.destroy());

  it('sets the first connections and those the pool opens later', async () => {
    // Default of the server first: the test shows a change, not the server's own setting.
    const [before] = await dataSource.query<{ level: string }[]>('SELECT @@tx_isolation AS level');
    expect(before.level).toBe('REPEATABLE-READ');

    await useReadCommitted(dataSource, poolSize);

    // More runners at once than were set up: the pool opens new connections for them.
    const runners = Array.from({ length: poolSize + 2 }, () => dataSource.createQueryRunner());
    try {
      const levels = await Promise.all(
        runners.map(async (runner) => {
          const rows: { level: string; id: number }[] = await runner.query(
            'SELECT @@tx_isolation AS level, CONNECTION_ID() AS id',
          );
          return rows[0];
        }),
      );
      expect(new Set(levels.map((l) => Number(l.id))).size).toBe(poolSize + 2);
      expect(levels.map((l) => l.level)).toEqual(Array(poolSize + 2).fill('READ-COMMITTED'));
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });
});
