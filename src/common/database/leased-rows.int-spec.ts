import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { testConfig } from '../../../test/support/test-environment';
import { dataSourceOptions } from './data-source-options';
import { type Held, LeasedRows, NOT_LEASED_AT } from './leased-rows';
import { useReadCommitted } from './read-committed';
import { prepareServer } from './schema';

/** A table of this spec only: the shape the service's leased tables share, and little else. */
const TABLE = 'leased_rows_spec';
const LEASE_MS = 15_000;
const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
const T0 = at(0);

interface Row {
  id: string;
  status: string;
  note: string | null;
  leased_until: Date | null;
  updated_at: Date;
}

describe('LeasedRows (MySQL)', () => {
  let dataSource: DataSource;
  let db: EntityManager;

  /** A fresh helper is a fresh process: its leases do not follow another's. */
  const leasedRows = () =>
    new LeasedRows({
      table: TABLE,
      claimable: "status = 'pending' AND due_at <= ?",
      leaseMs: LEASE_MS,
    });

  async function insert(
    rows: { status?: string; dueAt?: Date; leasedUntil?: Date | null }[],
  ): Promise<string[]> {
    const header: { insertId: number | string } = await db.query(
      `INSERT INTO ${TABLE} (status, due_at, leased_until, updated_at) VALUES
       ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`,
      rows.flatMap((r) => [r.status ?? 'pending', r.dueAt ?? T0, r.leasedUntil ?? null, T0]),
    );
    // InnoDB gives a multi-row insert consecutive ids.
    return rows.map((_, i) => String(BigInt(header.insertId) + BigInt(i)));
  }

  async function read(id: string): Promise<Row | undefined> {
    const rows: Row[] = await db.query(
      `SELECT id, status, note, leased_until, updated_at FROM ${TABLE} WHERE id = ?`,
      [id],
    );
    return rows.map((row) => ({ ...row, id: String(row.id) }))[0];
  }

  async function inTransaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return dataSource.transaction(work);
  }

  beforeAll(async () => {
    const { db: config } = testConfig();
    const type = await prepareServer(config, { createDatabase: false });
    const poolSize = 4;
    dataSource = await new DataSource({
      ...dataSourceOptions({ ...config, poolSize }, type),
      entities: [],
    }).initialize();
    // As the service runs: a locking read waits for, then sees, what the other committed.
    await useReadCommitted(dataSource, poolSize);
    db = dataSource.manager;
    await db.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await db.query(
      `CREATE TABLE ${TABLE} (
         id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
         status VARCHAR(16) NOT NULL,
         note VARCHAR(32) NULL,
         due_at DATETIME(3) NOT NULL,
         leased_until DATETIME(3) NULL,
         updated_at DATETIME(3) NOT NULL
       ) ENGINE=InnoDB`,
    );
  });

  afterAll(async () => {
    await db.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await dataSource.destroy();
  });

  describe('claimOne', () => {
    it('claims a free, claimable row: the lease is written and answered', async () => {
      const [id] = await insert([{}]);
      const lease = await leasedRows().claimOne(db, id, T0, [T0]);

      expect(lease).toEqual(at(LEASE_MS));
      expect(await read(id)).toEqual({
        id,
        status: 'pending',
        note: null,
        leased_until: at(LEASE_MS),
        updated_at: T0,
      });
    });

    it('refuses a row leased by another claim until its lease ends, and changes nothing', async () => {
      const rows = leasedRows();
      const [id] = await insert([{}]);
      const first = await rows.claimOne(db, id, T0, [T0]);

      await expect(rows.claimOne(db, id, at(LEASE_MS - 1), [T0])).resolves.toBeNull();
      await expect(leasedRows().claimOne(db, id, at(1000), [T0])).resolves.toBeNull();
      expect(await read(id)).toMatchObject({ leased_until: first, updated_at: T0 });
    });

    it('claims a row again once its lease has run out (the holder died mid-attempt)', async () => {
      const rows = leasedRows();
      const [id] = await insert([{}]);
      await rows.claimOne(db, id, T0, [T0]);

      // `<=`: the lease's last millisecond is already free.
      const second = await leasedRows().claimOne(db, id, at(LEASE_MS), [T0]);
      expect(second).toEqual(at(2 * LEASE_MS));
      expect(await read(id)).toMatchObject({
        leased_until: at(2 * LEASE_MS),
        updated_at: at(LEASE_MS),
      });
    });

    it('refuses a row the caller’s condition excludes (done, not due yet)', async () => {
      const [done, later] = await insert([{ status: 'sent' }, { dueAt: at(1) }]);
      const rows = leasedRows();

      await expect(rows.claimOne(db, done, T0, [T0])).resolves.toBeNull();
      await expect(rows.claimOne(db, later, T0, [T0])).resolves.toBeNull();
      expect((await read(done))?.leased_until).toBeNull();
      expect((await read(later))?.leased_until).toBeNull();
    });

    it('gives each claim of one process a later lease than the last, even at the same time', async () => {
      const rows = leasedRows();
      const [a, b] = await insert([{}, {}]);

      const first = await rows.claimOne(db, a, T0, [T0]);
      const second = await rows.claimOne(db, b, T0, [T0]);
      expect(first).toEqual(at(LEASE_MS));
      expect(second).toEqual(at(LEASE_MS + 1));
    });
  });

  describe('ending a claim takes the right lease', () => {
    /** A row claimed at T0, its lease run out, then claimed again: the first claim is stale. */
    async function claimedTwice(): Promise<{ stale: Held; current: Held }> {
      const [id] = await insert([{}]);
      const stale = { id, lease: (await leasedRows().claimOne(db, id, T0, [T0]))! };
      const current = { id, lease: (await leasedRows().claimOne(db, id, at(LEASE_MS), [T0]))! };
      return { stale, current };
    }

    it('finish sets the columns and frees the row for its holder, and for no one else', async () => {
      const rows = leasedRows();
      const { stale, current } = await claimedTwice();
      const before = await read(current.id);

      await expect(
        rows.finish(db, stale, at(20_000), "status = 'sent', note = ?", ['stale']),
      ).resolves.toBe(false);
      expect(await read(current.id)).toEqual(before);

      await expect(
        rows.finish(db, current, at(21_000), "status = 'sent', note = ?", ['current']),
      ).resolves.toBe(true);
      expect(await read(current.id)).toEqual({
        id: current.id,
        status: 'sent',
        note: 'current',
        leased_until: null,
        updated_at: at(21_000),
      });
    });

    it('release gives the row back for its holder only: claimable again at once', async () => {
      const rows = leasedRows();
      const { stale, current } = await claimedTwice();
      const before = await read(current.id);

      await expect(rows.release(db, stale, at(20_000))).resolves.toBe(false);
      expect(await read(current.id)).toEqual(before);

      await expect(rows.release(db, current, at(21_000))).resolves.toBe(true);
      expect(await read(current.id)).toEqual({
        ...before,
        leased_until: null,
        updated_at: at(21_000),
      });
      await expect(rows.claimOne(db, current.id, at(21_001), [T0])).resolves.not.toBeNull();
    });

    it('deleteHeld deletes for its holder only', async () => {
      const rows = leasedRows();
      const { stale, current } = await claimedTwice();

      await expect(rows.deleteHeld(db, stale)).resolves.toBe(false);
      expect(await read(current.id)).toBeDefined();
      await expect(rows.deleteHeld(db, current)).resolves.toBe(true);
      expect(await read(current.id)).toBeUndefined();
    });

    it('lockHeld tells which claims hold; finishLocked ends those', async () => {
      const rows = leasedRows();
      const { stale, current } = await claimedTwice();
      const [otherId] = await insert([{}]);
      const other = { id: otherId, lease: (await rows.claimOne(db, otherId, T0, [T0]))! };

      await inTransaction(async (tx) => {
        await expect(rows.lockHeld(tx, [stale, other, current])).resolves.toEqual([
          false,
          true,
          true,
        ]);
        await rows.finishLocked(tx, [other.id, current.id], at(30_000), "status = 'sent'");
      });
      for (const id of [other.id, current.id]) {
        expect(await read(id)).toMatchObject({
          status: 'sent',
          leased_until: null,
          updated_at: at(30_000),
        });
      }
    });
  });

  describe('claimSome', () => {
    it('claims the claimable rows among those asked, with one lease', async () => {
      const rows = leasedRows();
      const [free, expired, leased, done, later] = await insert([
        {},
        { leasedUntil: T0 },
        { leasedUntil: at(1) },
        { status: 'sent' },
        { dueAt: at(1) },
      ]);

      const { lease, claimed } = await inTransaction((tx) =>
        rows.claimSome(tx, [free, expired, leased, done, later], T0, [T0]),
      );
      expect(lease).toEqual(at(LEASE_MS));
      expect(claimed).toEqual([free, expired]);
      expect(await read(free)).toMatchObject({ leased_until: lease, updated_at: T0 });
      expect(await read(expired)).toMatchObject({ leased_until: lease, updated_at: T0 });
      expect(await read(leased)).toMatchObject({ leased_until: at(1) });
      expect((await read(done))?.leased_until).toBeNull();
      expect((await read(later))?.leased_until).toBeNull();
    });

    it('claims nothing, and writes nothing, when no row is claimable', async () => {
      const [leased] = await insert([{ leasedUntil: at(1) }]);
      const before = await read(leased);

      const { claimed } = await inTransaction((tx) =>
        leasedRows().claimSome(tx, [leased], T0, [T0]),
      );
      expect(claimed).toEqual([]);
      expect(await read(leased)).toEqual(before);
    });
  });

  describe('concurrent claims on two connections', () => {
    let runners: QueryRunner[];

    beforeEach(async () => {
      runners = [dataSource.createQueryRunner(), dataSource.createQueryRunner()];
      await Promise.all(runners.map((runner) => runner.connect()));
    });

    afterEach(() => Promise.all(runners.map((runner) => runner.release())));

    it('claimOne: of two claims of each row, exactly one wins, and its lease is written', async () => {
      const ids = await insert(Array.from({ length: 40 }, () => ({})));
      const processes = [leasedRows(), leasedRows()];
      const now = [at(1), at(2)];

      const results = await Promise.all(
        ids.map((id) =>
          Promise.all(
            processes.map((rows, i) => rows.claimOne(runners[i].manager, id, now[i], [T0])),
          ),
        ),
      );
      for (const [index, id] of ids.entries()) {
        const winners = results[index].filter((lease) => lease !== null);
        expect(winners).toHaveLength(1);
        expect((await read(id))?.leased_until).toEqual(winners[0]);
      }
    });

    it('claimSome: overlapping batches in two transactions share out the rows', async () => {
      const processes = [leasedRows(), leasedRows()];
      const claimIn = async (i: number, ids: string[]) => {
        const runner = runners[i];
        await runner.startTransaction();
        try {
          const result = await processes[i].claimSome(runner.manager, ids, at(i + 1), [T0]);
          await runner.commitTransaction();
          return result;
        } catch (e) {
          await runner.rollbackTransaction();
          throw e;
        }
      };
      // Several rounds: a race lost once in a while would still show.
      for (let round = 0; round < 5; round += 1) {
        const ids = await insert(Array.from({ length: 60 }, () => ({})));
        // Each asks for two thirds of the rows; the middle third is asked for by both.
        const results = await Promise.all([
          claimIn(0, ids.slice(0, 40)),
          claimIn(1, ids.slice(20)),
        ]);

        const [a, b] = results.map((r) => r.claimed);
        expect(a.filter((id) => b.includes(id))).toEqual([]);
        expect([...a, ...b].sort((x, y) => Number(x) - Number(y))).toEqual(ids);
        for (const { lease, claimed } of results) {
          for (const id of claimed) expect((await read(id))?.leased_until).toEqual(lease);
        }
      }
    });
  });

  it('NOT_LEASED_AT selects rows never leased or whose lease has ended at the time given', async () => {
    const [never, ended, endsNow, running] = await insert([
      {},
      { leasedUntil: at(-1) },
      { leasedUntil: T0 },
      { leasedUntil: at(1) },
    ]);
    const rows: { id: number | string }[] = await db.query(
      `SELECT id FROM ${TABLE} WHERE id IN (?) AND ${NOT_LEASED_AT} ORDER BY id`,
      [[never, ended, endsNow, running], T0],
    );
    expect(rows.map((row) => String(row.id))).toEqual([never, ended, endsNow]);
  });
});
