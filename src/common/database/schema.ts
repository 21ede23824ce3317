import { createConnection } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';

const MIGRATION_LOCK = 'scheduling:migrations';

/** Which server the database runs on: TypeORM reads column defaults differently on each. */
export type ServerType = 'mysql' | 'mariadb';

/** Whether the server is MySQL or MariaDB; creates the configured database if asked and missing. */
export async function prepareServer(
  db: DatabaseConfig,
  { createDatabase }: { createDatabase: boolean },
): Promise<ServerType> {
  const connection = await createConnection({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
  });
  try {
    if (createDatabase) {
      // The name is validated by the config schema ([A-Za-z0-9_] only), so quoting it is enough.
      await connection.query(
        `CREATE DATABASE IF NOT EXISTS \`${db.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
    }
    const [rows] = await connection.query('SELECT VERSION() AS version');
    const [{ version }] = rows as [{ version: string }];
    return /mariadb/i.test(version) ? 'mariadb' : 'mysql';
  } finally {
    await connection.end();
  }
}

/** Runs pending migrations under a named lock: processes starting together migrate once. */
export async function migrate(dataSource: DataSource, waitSeconds = 120): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query('SELECT GET_LOCK(?, ?) AS locked', [
      MIGRATION_LOCK,
      waitSeconds,
    ])) as [{ locked: number | null }];
    if (locked !== 1)
      throw new Error(`Timed out after ${waitSeconds}s waiting for the migration lock`);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}
