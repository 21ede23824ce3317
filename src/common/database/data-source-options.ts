import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';
import type { DatabaseNodes } from './database-nodes';
import { migrations } from './migrations';
import { PREPARED_STATEMENTS_PER_CONNECTION } from './prepared';
import type { ServerType } from './schema';

/** Every entity's source file, for what loads entities without the modules: the CLI, a test. */
export const ENTITY_SOURCES = join(__dirname, '..', '..', '**', '*.entity.ts');

/**
 * TypeORM options of the service and the TypeORM CLI. mysql2 reads and writes DATETIME as UTC
 * (`timezone: 'Z'`) but the session's zone is the server's, so SQL must not use NOW() for stored
 * times: the code passes them. `type` is the server's own (prepareServer): `migration:generate`
 * compares the entities with the schema right only when TypeORM reads the server's catalog right.
 * `db` names the server (with DB_HOSTS: the node DatabaseNodes found usable).
 */
export function dataSourceOptions(
  db: DatabaseConfig,
  type: ServerType,
  nodes?: DatabaseNodes,
): DataSourceOptions {
  return {
    type,
    host: db.host,
    port: db.port,
    username: db.user,
    password: db.password,
    database: db.name,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    poolSize: db.poolSize,
    // The hot statements run prepared (see prepared.ts); a small cache per connection.
    // With DB_HOSTS, `stream` opens each pooled connection to the current node (DatabaseNodes).
    extra: {
      maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION,
      ...nodes?.poolExtra(),
    },
    bigNumberStrings: false,
    // No stack captured per query: TypeORM's QueryFailedError shows the caller's anyway.
    trace: false,
    supportBigNumbers: true,
    synchronize: false,
    migrationsRun: false,
    migrations,
    migrationsTableName: 'migrations',
    // Off: TypeORM would print failing queries with their parameters (secrets among them).
    logging: false,
  };
}
