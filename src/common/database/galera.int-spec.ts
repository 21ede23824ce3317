import type { Connection } from 'mysql2/promise';
import {
  type GaleraCluster,
  galeraCluster,
  wsrepStatus,
} from '../../../test/support/galera-cluster';
import { connect } from '../../../test/support/replica-pair';

/*
 * The run's own 3-node Galera cluster (test/support/galera-cluster.ts), and the two facts about it
 * that multi-primary writes must be built on: a row lock taken by `SELECT … FOR UPDATE`
 * is local to its node, so two nodes both commit what each checked under "its" lock; a row both
 * transactions *write* is certified at commit, so one commits and the other gets 1213.
 */

const DB = 'galera_probe_test';

describe('Galera: a 3-node cluster of the run (int)', () => {
  let cluster: GaleraCluster;
  let nodes: Connection[];

  beforeAll(async () => {
    cluster = await galeraCluster();
    nodes = await Promise.all(cluster.nodes.map((n) => connect(n.port, 30_000)));
    await nodes[0].query(`DROP DATABASE IF EXISTS ${DB}`);
    await nodes[0].query(`CREATE DATABASE ${DB}`);
    for (const node of nodes) {
      await node.query(`USE ${DB}`);
      // Reads wait for the writes the cluster has committed before them (causal reads).
      await node.query('SET SESSION wsrep_sync_wait = 1');
      await node.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    }
    await nodes[0].query('CREATE TABLE calendars (id INT PRIMARY KEY, v INT NOT NULL)');
    await nodes[0].query(
      `CREATE TABLE appointments (id INT AUTO_INCREMENT PRIMARY KEY, calendar_id INT NOT NULL,
         slot INT NOT NULL)`,
    );
    await nodes[0].query('INSERT INTO calendars VALUES (1, 0), (2, 0)');
  }, 180_000);

  afterAll(async () => {
    await nodes?.[0]?.query(`DROP DATABASE IF EXISTS ${DB}`);
    await Promise.all((nodes ?? []).map((n) => n.end()));
  });

  const count = async (node: Connection, calendar: number) => {
    const [rows] = await node.query(
      'SELECT COUNT(*) AS n FROM appointments WHERE calendar_id = ?',
      [calendar],
    );
    return Number((rows as { n: number }[])[0].n);
  };

  it('has three synced members in one primary component, each taking writes', async () => {
    for (const node of nodes)
      expect(await wsrepStatus(node)).toMatchObject({
        wsrep_ready: 'ON',
        wsrep_cluster_status: 'Primary',
        wsrep_cluster_size: '3',
        wsrep_local_state_comment: 'Synced',
      });
    await nodes[1].query('INSERT INTO appointments (calendar_id, slot) VALUES (2, 1)');
    await nodes[2].query('INSERT INTO appointments (calendar_id, slot) VALUES (2, 2)');
    for (const node of nodes) expect(await count(node, 2)).toBe(2);
  });

  /** One booking's transaction on `node`: `lock` the calendar, count the slot, insert. */
  const booking = async (node: Connection, lock: string) => {
    await node.query('BEGIN');
    await node.query(lock);
    const [rows] = await node.query(
      'SELECT COUNT(*) AS n FROM appointments WHERE calendar_id = 1 AND slot = 9',
    );
    const taken = Number((rows as { n: number }[])[0].n);
    if (taken === 0) await node.query('INSERT INTO appointments (calendar_id, slot) VALUES (1, 9)');
    return taken;
  };
  const commit = (node: Connection) =>
    node.query('COMMIT').then(
      () => 'committed',
      (e: { errno?: number }) => e.errno,
    );

  it('lets two nodes both commit what each checked under its own FOR UPDATE: two in one slot', async () => {
    await nodes[0].query('DELETE FROM appointments WHERE calendar_id = 1');
    const lock = 'SELECT v FROM calendars WHERE id = 1 FOR UPDATE';
    expect(await booking(nodes[0], lock)).toBe(0);
    expect(await booking(nodes[1], lock)).toBe(0);
    expect([await commit(nodes[0]), await commit(nodes[1])]).toEqual(['committed', 'committed']);
    for (const node of nodes) expect(await count(node, 1)).toBe(2);
  });

  it('certifies a row both write: one commits, the other gets 1213 at COMMIT: one in the slot', async () => {
    await nodes[0].query('DELETE FROM appointments WHERE calendar_id = 1');
    const write = 'UPDATE calendars SET v = v + 1 WHERE id = 1';
    expect(await booking(nodes[0], write)).toBe(0);
    expect(await booking(nodes[2], write)).toBe(0);
    expect([await commit(nodes[0]), await commit(nodes[2])]).toEqual(['committed', 1213]);
    for (const node of nodes) expect(await count(node, 1)).toBe(1);
  });
});
