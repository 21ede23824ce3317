import { DataSource } from 'typeorm';
import type { CliCommand } from '../cli/cli-command';

export const databaseCommands: CliCommand[] = [
  {
    name: 'db:migrate',
    summary:
      'Creates the database if missing and runs pending migrations (the release step where DB_MIGRATE_ON_START=false); prints the applied migrations.',
    options: {},
    // The application's start-up does the work (under the migration lock), whatever the variable says.
    configure: (config) => config.with({ db: { ...config.db, migrateOnStart: true } }),
    run: async (app) => {
      const dataSource = app.get(DataSource);
      const rows = await dataSource.query<{ name: string }[]>(
        'SELECT name FROM migrations ORDER BY id',
      );
      return {
        database: dataSource.options.database,
        pending: await dataSource.showMigrations(),
        migrations: rows.map((r) => r.name),
      };
    },
  },
];
