import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { eventually } from './eventually';
import { freePort } from './redis-server';
import { sharedServer, spawnDetached } from './shared-servers';

const run = promisify(execFile);

/** The nodes of the run's Redis Cluster, as REDIS_CLUSTER_NODES takes them. */
export interface ClusterNodes {
  nodes: { host: string; port: number }[];
  /** `127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3` */
  list: string;
}

/**
 * A real 3-node Redis Cluster (Debian's redis-server, in memory only, 3 masters sharing the 16384
 * slots, no replicas) on free ports of 127.0.0.1, started once per test run (sharedServer).
 */
export function redisCluster(): Promise<ClusterNodes> {
  return sharedServer('redis-cluster', async (dir, pids) => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    for (const port of ports)
      spawnDetached(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
          ...['--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no'],
        ],
        join(dir, `redis-${port}.log`),
        pids,
      );
    for (const port of ports) await ping(port);
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    );
    for (const port of ports) {
      const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
      try {
        await client.connect();
        await eventually(async () => {
          const info = await client.cluster('INFO');
          return info.includes('cluster_state:ok') ? true : undefined;
        }, 30_000);
      } finally {
        client.disconnect();
      }
    }
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    return { nodes, list: ports.map((p) => `127.0.0.1:${p}`).join(',') };
  });
}

async function ping(port: number): Promise<void> {
  const client = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 50 });
  try {
    await eventually(() => client.ping().then(() => true), 10_000);
  } finally {
    client.disconnect();
  }
}
