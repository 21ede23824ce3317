import { testConfig } from './test-environment';

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
    ...overrides,
  };
}
