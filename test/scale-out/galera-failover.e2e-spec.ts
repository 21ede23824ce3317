import { readFile, stat } from 'node:fs/promises';
import type { Connection } from 'mysql2/promise';
import { eventually } from '../support/eventually';
import {
  type GaleraCluster,
  galeraCluster,
  killNode,
  nodeLog,
  restartNode,
  synced,
} from '../support/galera-cluster';
import { type Started, runCli, startEntry, waitForStatus } from '../support/processes';
import { connect } from '../support/replica-pair';
import { basicAuth } from '../support/test-app';
import { testEnvVars, testRun } from '../support/test-environment';

const CLUSTER = 'galera-failover';
const LOAD_MS = 30_000;
const KILL_AFTER_MS = 4000;
const RESTART_AFTER_MS = 12_000;
const LOOPS_PER_API = 2;
/** Each loop books its own calendar, 24 half-hours a day (08:00-20:00 UTC) from this day on. */
const FIRST_DAY = Date.UTC(2030, 0, 7);
const SLOTS_PER_DAY = 24;

interface Booked {
  id: number;
  calendar: number;
  at: number;
}

/**
 * Issue 41's failover, on a 3-node Galera cluster of this file's own (galeraCluster(CLUSTER)): three
 * API processes, each with DB_HOSTS listing the nodes in its own order (each prefers another node),
 * book for 30 s; a few seconds in, the node one API prefers is killed (SIGKILL) and later started
 * again. Every booking answered 2xx is on both surviving nodes, no time is booked twice, the API
 * whose node died books again within 10 s, and the node rejoins by IST and converges.
 */
describe('Galera failover (e2e, 3 APIs on a 3-node cluster, a node killed)', () => {
  let cluster: GaleraCluster;
  const apis: Started[] = [];
  const database = testRun().database.replace(/_test$/, '_galera_test');
  const connections: Connection[] = [];

  beforeAll(async () => {
    cluster = await galeraCluster(CLUSTER);
  }, 180_000);

  afterAll(async () => {
    for (const { child } of apis) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(apis.map((a) => a.exit));
    await Promise.all(connections.map((c) => c.end().catch(() => undefined)));
  }, 60_000);

  /** API `n`'s environment: the nodes in its own order, node `n` first. */
  const envOf = (n: number) =>
    testEnvVars({
      DB_HOST: undefined,
      DB_PORT: undefined,
      DB_HOSTS: [0, 1, 2].map((i) => `127.0.0.1:${cluster.nodes[(n + i) % 3].port}`).join(','),
      DB_NODE_CHECK_INTERVAL_MS: '500',
      DB_NAME: database,
      QUEUE_PREFIX: `${testRun().queuePrefix}:galera`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    });

  const count = async (c: Connection, where = '1 = 1', params: unknown[] = []) => {
    const [rows] = await c.query(`SELECT COUNT(*) AS n FROM appointments WHERE ${where}`, params);
    return Number((rows as { n: number }[])[0].n);
  };

  it('keeps every acknowledged booking once, fails over within 10 s, and rejoins by IST', async () => {
    // API 0 creates the schema as it starts (the others need none to start); then the account.
    // Four TypeScript processes starting on a busy machine: a generous start time.
    const first = startEntry('main.ts', { ...envOf(0), DB_MIGRATE_ON_START: 'true' }, 150_000);
    const others = Promise.all([1, 2].map((n) => startEntry('main.ts', envOf(n), 150_000)));
    apis.push(await first);
    await waitForStatus(`${apis[0].url}/health/ready`, 200, 60_000);
    const created = await runCli(
      ['account:create', '--email', `galera-${Date.now()}@example.test`, '--name', 'Galera'],
      envOf(1),
    );
    expect({ code: created.code, stderr: created.code === 0 ? '' : created.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const account = created.result as { id: number; apiKey: string };
    apis.push(...(await others));
    await Promise.all(apis.map(({ url }) => waitForStatus(`${url}/health/ready`, 200, 60_000)));

    const authorization = basicAuth(account.id, account.apiKey);
    const call = async (api: number, path: string, body: unknown, method = 'POST') => {
      const res = await fetch(`${apis[api].url}/api/v1${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const allDay = [{ start: '08:00', end: '20:00' }];
    const hours = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        allDay,
      ]),
    );
    const calendars: number[] = [];
    for (let i = 0; i < 3 * LOOPS_PER_API; i++) {
      const made = await call(i % 3, '/calendars', { name: `Room ${i}`, timezone: 'UTC', hours });
      expect(made.status).toBe(200);
      calendars.push(made.body.id as number);
    }
    const type = await call(0, '/appointment-types', {
      name: 'Visit',
      duration: 30,
      calendarIDs: calendars,
      maxDaysInAdvance: 3650,
    });
    expect(type.status).toBe(200);
    await call(0, '/settings', { sendConfirmationEmail: false, sendSms: false }, 'PUT');

    const booked: Booked[] = [];
    const failed: string[] = [];
    /** When each API answered a booking 2xx (ms since the load began). */
    const answered: number[][] = [[], [], []];
    const start = Date.now();
    let killedAt = 0;
    const loop = async (api: number, calendar: number) => {
      for (let k = 0; Date.now() - start < LOAD_MS; k++) {
        const at =
          FIRST_DAY +
          Math.floor(k / SLOTS_PER_DAY) * 86_400_000 +
          (8 * 60 + (k % SLOTS_PER_DAY) * 30) * 60_000;
        const datetime = new Date(at).toISOString().replace(/\.000Z$/, '+0000');
        try {
          const res = await call(api, '/appointments', {
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: 'ada@example.com',
            appointmentTypeID: type.body.id,
            calendarID: calendar,
            datetime,
          });
          if (res.status === 200) {
            booked.push({ id: res.body.id as number, calendar, at });
            answered[api].push(Date.now() - start);
          } else failed.push(`${api}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        } catch (err) {
          failed.push(`${api}: ${(err as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const victim = cluster.nodes[0]; // API 0's preferred node
    const logBefore = (await stat(nodeLog(victim))).size;
    const chaos = (async () => {
      await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
      await killNode(victim);
      killedAt = Date.now() - start;
      await new Promise((r) => setTimeout(r, RESTART_AFTER_MS - KILL_AFTER_MS));
      await restartNode(CLUSTER, victim);
    })();
    await Promise.all([chaos, ...calendars.map((calendar, i) => loop(i % 3, calendar))]);

    // API 0 wrote through another node within 10 s of the kill.
    const firstAfterKill = answered[0].find((t) => t > killedAt);
    expect(firstAfterKill).toBeDefined();
    expect(firstAfterKill! - killedAt).toBeLessThan(10_000);
    expect(answered.map((a) => a.length > 0)).toEqual([true, true, true]);
    // A few requests may fail while the node dies; the load goes on.
    expect(booked.length).toBeGreaterThan(100);
    expect({
      failed: failed.length < booked.length / 10,
      sample: failed.slice(0, 3),
    }).toMatchObject({
      failed: true,
    });

    // The survivors first: the node restarted may still be recovering and joining (IST), which a
    // machine busy with other suites makes slow.
    const open = async (port: number, timeoutMs: number) => {
      const c = await connect(port, timeoutMs);
      await c.query(`USE \`${database}\``);
      await c.query('SET SESSION wsrep_sync_wait = 1');
      return c;
    };
    const survivors = await Promise.all(cluster.nodes.slice(1).map((n) => open(n.port, 60_000)));
    connections.push(...survivors);
    const ids = booked.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Every acknowledged booking on both surviving nodes, by id.
    for (const c of survivors)
      expect(await count(c, 'id IN (?) AND canceled = 0', [ids])).toBe(ids.length);
    // No time booked twice: the rows are as many as the distinct (calendar, start) pairs.
    for (const c of survivors) {
      const [dups] = await c.query(
        `SELECT calendar_id, starts_at, COUNT(*) AS n FROM appointments
           WHERE canceled = 0 GROUP BY calendar_id, starts_at HAVING COUNT(*) > 1`,
      );
      expect(dups).toEqual([]);
    }

    // The node restarted rejoined by IST (its data not copied again) and converges.
    try {
      await synced(victim.port, 3, 180_000);
    } catch (err) {
      const tail = (await readFile(nodeLog(victim))).subarray(logBefore).toString().slice(-3000);
      throw new Error(`the restarted node did not sync: ${(err as Error).message}\n${tail}`);
    }
    const restarted = await open(victim.port, 10_000);
    connections.push(restarted);
    const log = (await readFile(nodeLog(victim))).subarray(logBefore).toString();
    expect(log).toMatch(/Receiving IST: \d+ writesets/);
    expect(log).toMatch(/IST received/);
    expect(log).not.toMatch(/SST completed/);
    const counts = await eventually(async () => {
      const all = await Promise.all(connections.map((c) => count(c)));
      return all.every((n) => n === all[0]) ? all : undefined;
    }, 20_000);
    expect(counts[0]).toBeGreaterThanOrEqual(ids.length);
    expect(await count(restarted, 'id IN (?)', [ids])).toBe(ids.length);
    // Its preferred node synced again, API 0 writes through it once more.
    const ready = await eventually(async () => {
      const res = await fetch(`${apis[0].url}/health/ready`);
      const body = (await res.json()) as {
        details: { databaseNodes: { current: string; nodes: Record<string, unknown> } };
      };
      return body.details.databaseNodes.current === 'node-1'
        ? { status: res.status, body }
        : undefined;
    }, 10_000);
    expect(ready.status).toBe(200);
    expect(ready.body.details.databaseNodes.nodes['node-1']).toEqual({
      status: 'usable',
      current: true,
      wsrep_ready: 'ON',
      wsrep_cluster_status: 'Primary',
      wsrep_local_state_comment: 'Synced',
      wsrep_cluster_size: 3,
    });
  }, 300_000);
});
