import type { DataSource } from 'typeorm';
import { openTestDataSource } from '../../../test/support/test-data-source';

/**
 * The migrations (run by the global setup) and the entities describe the same schema: otherwise
 * `npm run migration:generate` would offer to drop an index or a default the next time someone
 * adds a column, and an entity would read a column the database does not have.
 */
describe('Schema: the migrations build what the entities describe (MySQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await openTestDataSource();
  });

  afterAll(() => dataSource.destroy());

  it('finds every entity of src/', () => {
    expect(dataSource.entityMetadatas.map((m) => m.tableName)).toEqual(
      expect.arrayContaining(['accounts', 'outbox']),
    );
  });

  it('has nothing left for migration:generate to write', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });
});
