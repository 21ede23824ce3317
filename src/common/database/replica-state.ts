/**
 * What the last check of a read replica found: `serving` (within the lag bound; only these get
 * reads), `lagging`, `stopped` (a replication thread not running), `down` (no answer),
 * `connecting`.
 */
export interface ReplicaState {
  status: 'serving' | 'lagging' | 'stopped' | 'down' | 'connecting';
  /** Seconds_Behind_Master, when the server knows it. */
  lagSeconds: number | null;
  message?: string;
}

const stopped = (lagSeconds: number | null, message: string): ReplicaState => ({
  status: 'stopped',
  lagSeconds,
  message,
});

/** The state a `SHOW SLAVE STATUS` row gives (no row: replication is not set up on the server). */
export function replicaStateOf(
  row: Record<string, unknown> | undefined,
  maxLagSeconds: number,
): ReplicaState {
  if (row === undefined) return stopped(null, 'not a replica (no replication set up)');
  const io = String(row.Slave_IO_Running);
  const sql = String(row.Slave_SQL_Running);
  const behind = row.Seconds_Behind_Master;
  const lagSeconds = behind === null || behind === undefined ? null : Number(behind);
  if (io !== 'Yes' || sql !== 'Yes') {
    const error = [row.Last_IO_Error, row.Last_SQL_Error].find(
      (e): e is string => typeof e === 'string' && e !== '',
    );
    return stopped(
      lagSeconds,
      `replication not running (IO ${io}, SQL ${sql})${error ? `: ${error}` : ''}`,
    );
  }
  if (lagSeconds === null) return stopped(lagSeconds, 'lag unknown (Seconds_Behind_Master NULL)');
  if (lagSeconds > maxLagSeconds)
    return {
      status: 'lagging',
      lagSeconds,
      message: `${lagSeconds} s behind the primary (bound ${maxLagSeconds} s)`,
    };
  return { status: 'serving', lagSeconds };
}
