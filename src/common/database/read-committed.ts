import type { DataSource } from 'typeorm';

const SET_READ_COMMITTED = 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED';

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
 */
export async function useReadCommitted(dataSource: DataSource, poolSize: number): Promise<void> {
  const pool = (dataSource.driver as unknown as { pool: Pool }).pool;
  pool.on('connection', (connection) => {
    // The pool hands the connection out after this event: the statement is queued before any other.
    connection.query(SET_READ_COMMITTED, () => undefined);
  });
  const runners = Array.from({ length: poolSize }, () => dataSource.createQueryRunner());
  try {
    await Promise.all(runners.map((runner) => runner.query(SET_READ_COMMITTED)));
  } finally {
    await Promise.all(runners.map((runner) => runner.release()));
  }
}
