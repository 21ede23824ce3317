import { eventually } from '../../../test/support/eventually';
import { freePort } from '../../../test/support/redis-server';
import { testConfig } from '../../../test/support/test-environment';
import { createRedisConnection, EndingCluster } from './redis-connections';

describe('createRedisConnection on a cluster', () => {
  it('ends when closed between two reconnection attempts, as Bull closes it (quit, then disconnect)', async () => {
    const port = await freePort(); // nothing listens there: every attempt fails
    const redis = { ...testConfig().redis, clusterNodes: [{ host: '127.0.0.1', port }] };
    const connection = createRedisConnection(redis, { retryStrategy: () => 50 });
    expect(connection).toBeInstanceOf(EndingCluster);
    connection.on('error', () => undefined);
    await eventually(() => (connection.status === 'reconnecting' ? true : undefined));

    const ended = new Promise<string>((resolve) => connection.once('end', () => resolve('ended')));
    await connection.quit();
    connection.disconnect();
    let timer: NodeJS.Timeout | undefined;
    const open = new Promise<string>(
      (resolve) => (timer = setTimeout(resolve, 1000, 'still open')),
    );
    expect(await Promise.race([ended, open])).toBe('ended');
    clearTimeout(timer);
    expect(connection.status).toBe('end');
  });
});
