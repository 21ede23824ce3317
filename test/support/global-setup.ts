import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/common/database/data-source-options';
import { migrate, prepareServer } from '../../src/common/database/schema';
import { provideRadicale } from './radicale-program';
import { testConfig } from './test-environment';

/**
 * Creates and migrates this run's database, and finds or fetches the servers the tests start that
 * the machine may lack (Radicale; the rest, MariaDB replicas, Redis Cluster nodes and
 * Chromium, come with MariaDB, Redis and `npm ci`). The run id and what was found travel to the test
 * workers through the environment, so every file of the run shares the database; tests stay apart
 * by using accounts of their own (every query is scoped by account).
 */
export default async function globalSetup(): Promise<void> {
  process.env.SCHEDULING_TEST_RUN ??= `t${process.pid}`;
  await provideRadicale((line) => process.stdout.write(`\n${line}\n`));
  const config = testConfig();
  const type = await prepareServer(config.db, { createDatabase: true });
  const dataSource = await new DataSource(dataSourceOptions(config.db, type)).initialize();
  try {
    await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
