import type { Connection } from 'mysql2/promise';
import { type GaleraCluster, galeraCluster } from '../support/galera-cluster';
import { type Finished, type Started, runCli, startEntry } from '../support/processes';
import { connect } from '../support/replica-pair';
import { basicAuth } from '../support/test-app';
import { testEnvVars, testRun } from '../support/test-environment';

/*
 * Multi-primary: three API processes, each writing to a different node of the run's
 * 3-node Galera cluster (test/support/galera-cluster.ts), and every invariant raced from all three
 * at once: 60 bookings of one slot, the last seat of a class, a package's last use, a room's last
 * unit, a type's last booking of the day. Each race has exactly one winner, counted on every node.
 * Each API lists the nodes in its own order (DB_HOSTS), so that it writes through its own node.
 * A lock taken by a read holds on its own node only (galera.int-spec.ts): before locks were writes,
 * the room's last unit was booked several times over.
 */

const MONDAY = '2030-06-03';
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };
const HORIZON = { maxDaysInAdvance: 3650 };
const RACERS = 60;

interface Answer {
  status: number;
  body: { id?: number; error?: string; message?: string };
}

describe('Multi-primary: three APIs on three Galera nodes, every race one winner (e2e)', () => {
  let cluster: GaleraCluster;
  const apis: (Started & { exit: Promise<Finished> })[] = [];
  let nodes: Connection[] = [];
  const database = `${testRun().database.replace(/_test$/, '')}_galera_test`;
  let authorization = '';
  let calls = 0;

  beforeAll(async () => {
    cluster = await galeraCluster();
    // Each API lists the three nodes, its own first (DB_HOSTS): it writes through that one.
    const envOf = (first: number, migrate: boolean) => {
      const env = testEnvVars({
        DB_HOSTS: [...cluster.nodes.slice(first), ...cluster.nodes.slice(0, first)]
          .map((n) => `127.0.0.1:${n.port}`)
          .join(','),
        DB_NAME: database,
        DB_MIGRATE_ON_START: String(migrate),
        QUEUE_PREFIX: `${testRun().queuePrefix}:galera`,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      });
      delete env.DB_HOST;
      delete env.DB_PORT;
      return env;
    };
    // The first API creates the schema (DDL replicates to every node), then the others start.
    apis.push(await startEntry('main.ts', envOf(0, true)));
    apis.push(...(await Promise.all([1, 2].map((n) => startEntry('main.ts', envOf(n, false))))));
    const created = await runCli(
      ['account:create', '--email', `galera-${Date.now()}@example.test`, '--name', 'Galera'],
      envOf(0, false),
    );
    const account = created.result as { id: number; apiKey: string };
    authorization = basicAuth(account.id, account.apiKey);
    nodes = await Promise.all(cluster.nodes.map((n) => connect(n.port)));
    for (const node of nodes) {
      await node.query(`USE \`${database}\``);
      // Causal reads: a count waits for every write the cluster committed before it.
      await node.query('SET SESSION wsrep_sync_wait = 1');
    }
    await call('PUT', '/settings', { sendConfirmationEmail: false, sendSms: false });
  }, 180_000);

  afterAll(async () => {
    for (const api of apis) api.child.kill('SIGTERM');
    await Promise.all(apis.map((a) => a.exit));
    await nodes[0]?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await Promise.all(nodes.map((n) => n.end()));
  }, 60_000);

  /** A request to the next API in turn: the racers are spread over the three nodes. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const api = apis[calls++ % apis.length];
    const res = await fetch(`${api.url}/api/v1${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  }
  const post = async (path: string, body: unknown) => {
    const answer = await call('POST', path, body);
    expect({
      path,
      status: answer.status,
      body: answer.status === 200 ? 'ok' : answer.body,
    }).toEqual({ path, status: 200, body: 'ok' });
    return answer.body.id!;
  };

  /** The answers split: how many booked, and the refusals' `status error` with their count. */
  function tally(answers: Answer[]) {
    const refused: Record<string, number> = {};
    for (const a of answers.filter((r) => r.status !== 200)) {
      const key = `${a.status} ${a.body.error}`;
      refused[key] = (refused[key] ?? 0) + 1;
    }
    return { booked: answers.filter((a) => a.status === 200).length, refused };
  }

  /** The live appointments matching `where`, counted on each node. */
  const countOnEveryNode = (where: string, parameters: unknown[]) =>
    Promise.all(
      nodes.map(async (node) => {
        const [rows] = await node.query(
          `SELECT COUNT(*) AS n FROM appointments WHERE canceled = 0 AND ${where}`,
          parameters,
        );
        return Number((rows as { n: number }[])[0].n);
      }),
    );

  const client = (i: number) => ({
    firstName: 'Ada',
    lastName: `Racer ${i}`,
    email: `racer${i}@example.com`,
  });
  const race = (body: (i: number) => Record<string, unknown>) =>
    Promise.all(Array.from({ length: RACERS }, (_, i) => call('POST', '/appointments', body(i))));
  const calendars = async (n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push(await post('/calendars', { name: `Chair ${i}`, hours: HOURS }));
    return ids;
  };
  /** `HH:MM` of the quarter-hour `q` after 09:00. */
  const quarter = (q: number) =>
    `${String(9 + Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;

  it('60 bookings of one slot of one calendar: one booked', async () => {
    const [calendar] = await calendars(1);
    const type = await post('/appointment-types', {
      name: 'Cut',
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const answers = await race((i) => ({
      ...client(i),
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
    }));
    expect(tally(answers)).toEqual({ booked: 1, refused: { '400 not_available': RACERS - 1 } });
    expect(await countOnEveryNode('calendar_id = ?', [calendar])).toEqual([1, 1, 1]);
  });

  it("a class's last seat: one booked", async () => {
    const [calendar] = await calendars(1);
    const yoga = await post('/appointment-types', {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: 3,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const classId = await post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
    });
    const seat = (i: number) => ({
      ...client(i),
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
    });
    await post('/appointments', seat(1000));
    await post('/appointments', seat(1001));
    const answers = await race(seat);
    expect(tally(answers)).toEqual({ booked: 1, refused: { '400 not_available': RACERS - 1 } });
    expect(await countOnEveryNode('class_id = ?', [classId])).toEqual([3, 3, 3]);
  });

  it("a package's last use, raced by bookings of different calendars and times: one uses it", async () => {
    const rooms = await calendars(4);
    const type = await post('/appointment-types', {
      name: 'Massage',
      duration: 15,
      price: '50.00',
      calendarIDs: rooms,
      ...HORIZON,
    });
    const product = await post('/products', {
      name: 'One visit',
      price: 45,
      type: 'appointments',
      appointmentTypeCounts: { [type]: 1 },
    });
    const issued = await call('POST', '/certificates', { productID: product });
    const { id: certificateId, certificate: code } = issued.body as {
      id: number;
      certificate: string;
    };
    const answers = await race((i) => ({
      ...client(i),
      appointmentTypeID: type,
      calendarID: rooms[i % 4],
      datetime: `${MONDAY}T${quarter(Math.floor(i / 4))}`,
      certificate: code,
    }));
    expect(tally(answers)).toEqual({ booked: 1, refused: { '400 certificate_uses': RACERS - 1 } });
    expect(await countOnEveryNode('certificate_id = ?', [certificateId])).toEqual([1, 1, 1]);
  });

  it("a room's last unit, raced by bookings of different calendars: one booked", async () => {
    const chairs = await calendars(3);
    const room = await post('/resources', { name: 'Sauna', quantity: 1 });
    const type = await post('/appointment-types', {
      name: 'Sauna',
      duration: 60,
      calendarIDs: chairs,
      resourceIDs: [room],
      ...HORIZON,
    });
    // The day has a booking already: its row in resource_days exists, and only a write of it
    // (not the insert of a missing one) can make the racers conflict.
    await post('/appointments', {
      ...client(1000),
      appointmentTypeID: type,
      calendarID: chairs[0],
      datetime: `${MONDAY}T15:00`,
    });
    const answers = await race((i) => ({
      ...client(i),
      appointmentTypeID: type,
      calendarID: chairs[i % 3],
      datetime: `${MONDAY}T10:00`,
    }));
    expect(tally(answers)).toEqual({ booked: 1, refused: { '400 not_available': RACERS - 1 } });
    expect(await countOnEveryNode('appointment_type_id = ?', [type])).toEqual([2, 2, 2]);
  });

  it("a type's day limit of 1, raced by bookings of different calendars and times: one booked", async () => {
    const chairs = await calendars(3);
    const type = await post('/appointment-types', {
      name: 'Consultation',
      duration: 15,
      calendarIDs: chairs,
      maxPerDay: 1,
      ...HORIZON,
    });
    const answers = await race((i) => ({
      ...client(i),
      appointmentTypeID: type,
      calendarID: chairs[i % 3],
      datetime: `${MONDAY}T${quarter(Math.floor(i / 3))}`,
    }));
    expect(tally(answers)).toEqual({ booked: 1, refused: { '400 not_available': RACERS - 1 } });
    expect(await countOnEveryNode('appointment_type_id = ?', [type])).toEqual([1, 1, 1]);
  });

  it('one Idempotency-Key raced over the three nodes: booked once, every answer that booking', async () => {
    const [calendar] = await calendars(1);
    const type = await post('/appointment-types', {
      name: 'Check-up',
      duration: 30,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const body = { ...client(1), appointmentTypeID: type, datetime: `${MONDAY}T11:00` };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', '/appointments', body, { 'idempotency-key': `galera-${type}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await countOnEveryNode('calendar_id = ?', [calendar])).toEqual([1, 1, 1]);
  });
});
