import { DataSource } from 'typeorm';
import { testConfig } from '../../../test/support/test-environment';
import { ENTITY_SOURCES, dataSourceOptions } from './data-source-options';
import { prepareServer } from './schema';

/**
 * The migrations (run by the global setup) and the entities describe the same schema: otherwise
 * `npm run migration:generate` would offer to drop an index or a default the next time someone
 * adds a column, and an entity would read a column the database does not have.
 */
describe('Schema: the migrations build what the entities describe (MySQL)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const { db } = testConfig();
    const type = await prepareServer(db, { createDatabase: false });
    dataSource = await new DataSource({
      ...dataSourceOptions(db, type),
      entities: [ENTITY_SOURCES],
    }).initialize();
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
