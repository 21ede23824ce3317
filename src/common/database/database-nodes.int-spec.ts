import { type Server, type Socket, createServer, connect as connectSocket } from 'node:net';
import { DataSource } from 'typeorm';
import { type GaleraCluster, galeraCluster } from '../../../test/support/galera-cluster';
import { eventually } from '../../../test/support/eventually';
import { freePort } from '../../../test/support/redis-server';
import { testConfig } from '../../../test/support/test-environment';
import { createRootLogger } from '../logging/logging.module';
import { dataSourceOptions } from './data-source-options';
import { DatabaseNodes } from './database-nodes';
import { prepareServer } from './schema';

/**
 * A TCP proxy to a node, which the test closes and opens again: the pool loses its node without the
 * run's shared cluster being disturbed (other files use it: its nodes are never stopped here).
 */
class NodeProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connectSocket(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** Like a killed server: every connection closed, new ones refused. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
    this.server = undefined;
  }
}

const DB = 'database_nodes_probe_test';
const logger = createRootLogger('silent', 'test');

describe('DatabaseNodes: writes through the first usable node of DB_HOSTS (int, the run’s Galera cluster)', () => {
  let cluster: GaleraCluster;
  const opened: { nodes: DatabaseNodes; dataSource?: DataSource }[] = [];

  beforeAll(async () => {
    cluster = await galeraCluster();
  }, 180_000);

  afterAll(async () => {
    for (const { nodes, dataSource } of opened) {
      if (dataSource?.isInitialized) {
        await dataSource.query(`DROP DATABASE IF EXISTS ${DB}`).catch(() => undefined);
        await dataSource.destroy();
      }
      await nodes.onApplicationShutdown();
    }
  });

  /** A pool opened as the service opens it (CoreModule), on `hosts` in that order. */
  async function open(hosts: number[], checkIntervalMs = 60_000, poolSize = 4) {
    const base = testConfig().db;
    const db = {
      ...base,
      name: DB,
      poolSize,
      cluster: { nodes: hosts.map((port) => ({ host: '127.0.0.1', port })), checkIntervalMs },
    };
    const nodes = new DatabaseNodes(db, logger);
    opened.push({ nodes });
    const on = await nodes.start();
    const type = await prepareServer(on, { createDatabase: true });
    const dataSource = await new DataSource(dataSourceOptions(on, type, nodes)).initialize();
    nodes.watch(dataSource);
    opened[opened.length - 1].dataSource = dataSource;
    /** The ports that `count` statements at once were answered on. */
    const answeredOn = async (count = 12) =>
      new Set(
        await Promise.all(
          Array.from({ length: count }, async () => {
            const [row] = await dataSource.query<{ port: number }[]>(
              'SELECT @@port AS port, SLEEP(0.01)',
            );
            return Number(row.port);
          }),
        ),
      );
    return { nodes, dataSource, on, answeredOn };
  }

  it('skips a node that refuses (a closed port) and writes through the next', async () => {
    const closed = await freePort();
    const [g1, g2] = cluster.nodes;
    const { nodes, on, answeredOn } = await open([closed, g1.port, g2.port]);
    expect(on.port).toBe(g1.port);
    expect([...(await answeredOn())]).toEqual([g1.port]);
    const report = nodes.report();
    expect(report).toMatchObject({
      usable: true,
      current: 'node-2',
      nodes: {
        'node-1': { status: 'down', current: false },
        'node-2': {
          status: 'usable',
          current: true,
          wsrep_ready: 'ON',
          wsrep_cluster_status: 'Primary',
          wsrep_local_state_comment: 'Synced',
          wsrep_cluster_size: 3,
        },
        'node-3': { status: 'usable', current: false, wsrep_cluster_size: 3 },
      },
    });
    expect(report.nodes['node-1']).not.toHaveProperty('wsrep_ready');
  }, 30_000);

  it('moves at once when its node goes away (no wait for the next check), then back when it returns', async () => {
    const [g1, g2] = cluster.nodes;
    const proxy = new NodeProxy(await freePort(), g1.port);
    await proxy.open();
    // Checks every 60 s: a move within a second is the lost connection's doing.
    const first = await open([proxy.port, g2.port]);
    expect([...(await first.answeredOn())]).toEqual([g1.port]);
    // Checks every 200 ms: it comes back when the node does.
    const second = await open([proxy.port, g2.port], 200);
    expect([...(await second.answeredOn())]).toEqual([g1.port]);

    await proxy.close();
    const movedAt = Date.now();
    await eventually(() => (first.nodes.report().current === 'node-2' ? true : undefined), 3000);
    expect(Date.now() - movedAt).toBeLessThan(1500);
    // Statements in flight when the node went may fail; those after the move all go to the next.
    expect([...(await first.answeredOn())]).toEqual([g2.port]);
    await eventually(() => (second.nodes.report().current === 'node-2' ? true : undefined), 3000);
    expect([...(await second.answeredOn())]).toEqual([g2.port]);

    await proxy.open();
    await eventually(() => (second.nodes.report().current === 'node-1' ? true : undefined), 5000);
    // Connections to the other node are closed as they come back to the pool: soon all go to g1.
    await eventually(async () => {
      const ports = await second.answeredOn();
      return ports.size === 1 && ports.has(g1.port) ? true : undefined;
    }, 5000);
    await proxy.close();
  }, 60_000);

  it('counts a server without Galera usable: the machine’s own MariaDB', async () => {
    const machine = testConfig().db.port;
    const { nodes, answeredOn } = await open([machine]);
    expect([...(await answeredOn(3))]).toEqual([machine]);
    expect(nodes.report()).toEqual({
      usable: true,
      current: 'node-1',
      nodes: { 'node-1': { status: 'usable', current: true } },
    });
  }, 30_000);
});
