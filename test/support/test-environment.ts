import { AppConfig } from '../../src/config/app-config';

/**
 * The configuration of a test run: its own `*_test` database and its own Redis key prefix, both made
 * by the global setup (test/support/global-setup.ts) and removed by the teardown.
 */
export function testRun(): { database: string; queuePrefix: string } {
  const id = process.env.SCHEDULING_TEST_RUN ?? `t${process.pid}`;
  return { database: `scheduling_${id}_test`, queuePrefix: `test:${id}` };
}

/** Refuses any database whose name does not say it is a test database. */
export function assertTestDatabase(name: string): void {
  if (!/_test$/.test(name)) {
    throw new Error(
      `Refusing to run tests against "${name}": a test database name ends in "_test".`,
    );
  }
}

export function testConfig(overrides: Parameters<AppConfig['with']>[0] = {}): AppConfig {
  const { database, queuePrefix } = testRun();
  assertTestDatabase(database);
  return AppConfig.fromEnvironment({
    ...process.env,
    NODE_ENV: 'test',
    DB_NAME: database,
    QUEUE_PREFIX: queuePrefix,
    DB_MIGRATE_ON_START: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '3000',
    // Test receivers listen on 127.0.0.1 at random ports.
    WEBHOOK_ALLOWED_PORTS: '*',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Test calendar servers (radicale, .ics files) listen on 127.0.0.1 at random ports.
    CALENDAR_SYNC_ALLOWED_PORTS: '*',
    CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES: 'true',
    // Tests send many requests from one address; the limits' own tests turn them on.
    RATE_LIMIT_ENABLED: 'false',
  }).with(overrides);
}

/** The environment of a child process (CLI, API, worker) that should use this run's database and Redis. */
export function testEnvVars(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const config = testConfig();
  return {
    NODE_ENV: 'test',
    DB_HOST: config.db.host,
    DB_PORT: String(config.db.port),
    DB_USER: config.db.user,
    DB_PASSWORD: config.db.password,
    DB_NAME: config.db.name,
    DB_MIGRATE_ON_START: 'false',
    REDIS_HOST: config.redis.host,
    REDIS_PORT: String(config.redis.port),
    QUEUE_PREFIX: config.queue.prefix,
    LOG_LEVEL: 'warn',
    // Several API processes run at once: no metrics listener unless a test asks for one.
    METRICS_PORT: '0',
    WEBHOOK_ALLOWED_PORTS: '*',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    CALENDAR_SYNC_ALLOWED_PORTS: '*',
    CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES: 'true',
    RATE_LIMIT_ENABLED: 'false',
    ...overrides,
  };
}
