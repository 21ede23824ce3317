import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { stopSharedServers } from './shared-servers';
import { assertTestDatabase, testConfig } from './test-environment';

/** Stops the run's shared servers; drops this run's database and its Redis keys. */
export default async function globalTeardown(): Promise<void> {
  await stopSharedServers();
  const config = testConfig();
  assertTestDatabase(config.db.name);
  const connection = await createConnection({
    host: config.db.host,
    port: config.db.port,
    user: config.db.user,
    password: config.db.password,
  });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${config.db.name}\``);
  } finally {
    await connection.end();
  }

  const redis = new Redis({
    host: config.redis.host,
    port: config.redis.port,
    password: config.redis.password,
    db: config.redis.db,
    lazyConnect: true,
  });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${config.queue.prefix}:*`,
        'COUNT',
        1000,
      );
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
