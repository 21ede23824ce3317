import type { DataSource } from 'typeorm';

const SET_READ_COMMITTED = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';
/** Galera's causal reads: a read waits until its node has applied what the cluster committed. */
const SET_CAUSAL_READS = 'SET SESSION wsrep_sync_wait = 1';

interface PoolConnection {
  query(sql: string, callback: (err: Error | null) => void): void;
}
interface Pool {
  on(event: 'connection', listener: (connection: PoolConnection) => void): void;
}

/**
 * Every pooled connection runs its transactions at READ COMMITTED, set once. Correctness rests on
 * `FOR UPDATE` locks of existing rows and unique indexes, never gap locks: each statement reads
 * what is committed, so a booking that waited for a calendar's lock sees its predecessor's
 * appointment, and InnoDB takes no gap locks. Connections opened before the pool's `connection`
 * listener get it here, by holding every connection of the pool at once.
 *
 * `causalReads` (on a Galera cluster, DB_HOSTS): every read also waits until its node has applied
 * every write the cluster committed before it (`wsrep_sync_wait = 1`). A node applies the others'
 * writes a moment after they commit, and a client's next request may reach another API process on
 * another node: without it, a type just created could be "not found" there, or an appointment just
 * booked missing from a list. Locks need no such wait (locks are writes, certified at commit).
 */
export async function useReadCommitted(
  dataSource: DataSource,
  poolSize: number,
  { causalReads = false }: { causalReads?: boolean } = {},
): Promise<void> {
  const statements = causalReads ? [SET_READ_COMMITTED, SET_CAUSAL_READS] : [SET_READ_COMMITTED];
  const pool = (dataSource.driver as unknown as { pool: Pool }).pool;
  pool.on('connection', (connection) => {
    // The pool hands the connection out after this event: the statements are queued before any other.
    for (const statement of statements) connection.query(statement, () => undefined);
  });
  const runners = Array.from({ length: poolSize }, () => dataSource.createQueryRunner());
  try {
    await Promise.all(
      runners.map(async (runner) => {
        for (const statement of statements) await runner.query(statement);
      }),
    );
  } finally {
    await Promise.all(runners.map((runner) => runner.release()));
  }
}
