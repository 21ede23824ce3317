import { rmSync } from 'node:fs';
import type { Config } from '@jest/types';
import Redis from 'ioredis';
import { coverageDirectory, operationsNeverAnswered } from './openapi-contract';
import { createConnection } from 'mysql2/promise';
import { stopSharedServers } from './shared-servers';
import { assertTestDatabase, testConfig } from './test-environment';

/** A run of every test file and every test: the one whose responses must cover the document. */
function isWholeRun(globalConfig: Config.GlobalConfig): boolean {
  return (
    globalConfig.testPathPatterns.patterns.length === 0 &&
    !globalConfig.testNamePattern &&
    !globalConfig.onlyChanged &&
    !globalConfig.findRelatedTests &&
    (globalConfig.shard === null || globalConfig.shard === undefined)
  );
}

/**
 * Fails a whole run in which some operation of the OpenAPI document was never answered
 * (openapi-contract.ts); a run of some files only checks what it ran.
 */
function checkOperationsCovered(globalConfig: Config.GlobalConfig): void {
  const directory = coverageDirectory();
  const missed = operationsNeverAnswered(directory);
  rmSync(directory, { recursive: true, force: true });
  if (!isWholeRun(globalConfig) || missed === undefined || missed.length === 0) return;
  throw new Error(
    `Operations of the OpenAPI document no e2e test exercised:\n${missed.join('\n')}`,
  );
}

/**
 * Stops the run's shared servers; drops this run's database and its Redis keys; checks the run
 * exercised every operation of the OpenAPI document.
 */
export default async function globalTeardown(
  globalConfig: Config.GlobalConfig,
  projectConfig: Config.ProjectConfig,
): Promise<void> {
  // Checked first, thrown last: the servers, database and keys are cleaned up whatever it says.
  let uncovered: Error | undefined;
  try {
    if (projectConfig.displayName?.name === 'e2e') checkOperationsCovered(globalConfig);
  } catch (error) {
    uncovered = error instanceof Error ? error : new Error(String(error));
  }
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
  if (uncovered) throw uncovered;
}
