/**
 * The DataSource of the TypeORM CLI (`npm run migration:run`, `migration:revert`, `migration:generate`),
 * built from the same configuration as the service (environment variables, `.env`). The service itself
 * does not read this file: it migrates at start (DB_MIGRATE_ON_START) with the same options.
 *
 * Generating a migration from the entities:
 *   npm run migration:generate -- src/common/database/migrations/add-something
 * then list the new class in src/common/database/migrations/index.ts (a unit test checks it is there).
 */
import { DataSource } from 'typeorm';
import { ENTITY_SOURCES, dataSourceOptions } from './src/common/database/data-source-options';
import { onUsableNode } from './src/common/database/database-nodes';
import { prepareServer } from './src/common/database/schema';
import { createRootLogger } from './src/common/logging/logging.module';
import { AppConfig, loadDotEnv } from './src/config/app-config';

async function cliDataSource(): Promise<DataSource> {
  loadDotEnv();
  const config = AppConfig.fromEnvironment();
  // With DB_HOSTS: the first usable node of the cluster.
  const db = await onUsableNode(config.db, createRootLogger(config.log.level, 'cli'));
  const type = await prepareServer(db, { createDatabase: true });
  return new DataSource({
    ...dataSourceOptions(db, type),
    entities: [ENTITY_SOURCES],
  });
}

export default cliDataSource();
