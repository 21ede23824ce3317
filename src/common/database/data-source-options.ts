import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';
import { migrations } from './migrations';
import { PREPARED_STATEMENTS_PER_CONNECTION } from './prepared';
import type { ServerType } from './schema';

/**
 * Every entity's source file, for what loads entities without the service's modules: the TypeORM
 * CLI (`ormconfig.ts`, under ts-node) and the schema test. The service registers its entities
 * through its modules (`autoLoadEntities`).
 */
export const ENTITY_SOURCES = join(__dirname, '..', '..', '**', '*.entity.ts');

/**
 * TypeORM options shared by the service and the TypeORM CLI (`ormconfig.ts`).
 *
 * Times: mysql2 reads and writes DATETIME as UTC (`timezone: 'Z'`), but the session's own zone is the
 * server's, so SQL must not use NOW()/CURRENT_TIMESTAMP for stored times: the code passes them.
 * `type` is the server's own (see prepareServer): the SQL is the same, but `migration:generate`
 * compares the entities with the schema only when TypeORM reads the server's catalog right.
 */
export function dataSourceOptions(db: DatabaseConfig, type: ServerType): DataSourceOptions {
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
    extra: { maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION },
    bigNumberStrings: false,
    // mysql2 captures no stack per query (its public option): TypeORM's QueryFailedError shows
    // the caller's stack anyway.
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
