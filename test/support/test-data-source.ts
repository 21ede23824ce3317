import { DataSource } from 'typeorm';
import { ENTITY_SOURCES, dataSourceOptions } from '../../src/common/database/data-source-options';
import { prepareServer } from '../../src/common/database/schema';
import { testConfig } from './test-environment';

/** A DataSource with every entity on this run's database (migrated by the global setup). */
export async function openTestDataSource(): Promise<DataSource> {
  const { db } = testConfig();
  const type = await prepareServer(db, { createDatabase: false });
  return new DataSource({
    ...dataSourceOptions(db, type),
    entities: [ENTITY_SOURCES],
  }).initialize();
}
