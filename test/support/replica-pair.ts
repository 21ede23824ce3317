import { execFile } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Connection, createConnection } from 'mysql2/promise';
import { eventually } from './eventually';
import { freePort } from './redis-server';
import { sharedServer, spawnDetached } from './shared-servers';

const run = promisify(execFile);

export interface ReplicaPair {
  primary: { host: string; port: number };
  replica: { host: string; port: number };
}

/**
 * A MariaDB primary with one replica, both of the test run's own (Debian's mariadbd), on free ports
 * of 127.0.0.1, started once per run (sharedServer). The machine's MariaDB (127.0.0.1:3306) keeps
 * no binary log, and turning it on would need a restart: so the replica tests get a private
 * primary (binary log on, server-id 1) and a replica (server-id 2) following it by GTID
 * (`MASTER_USE_GTID=slave_pos`). Both have root without password, as the machine's.
 */
export function replicaPair(): Promise<ReplicaPair> {
  return sharedServer('mariadb-replicas', async (dir, pids) => {
    const [primaryPort, replicaPort] = [await freePort(), await freePort()];
    const primaryData = join(dir, 'primary');
    await run(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${primaryData}`,
        '--user=root',
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
      ],
      { timeout: 60_000 },
    );
    // The replica starts from the same (empty) data: nothing to copy over but the binary log.
    await cp(primaryData, join(dir, 'replica'), { recursive: true });
    const common = (name: string, port: number) => [
      '--no-defaults',
      `--datadir=${join(dir, name)}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, `${name}.sock`)}`,
      `--pid-file=${join(dir, `${name}.pid`)}`,
      '--user=root',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=64M',
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
    ];
    spawnDetached(
      '/usr/sbin/mariadbd',
      [
        ...common('primary', primaryPort),
        '--server-id=1',
        `--log-bin=${join(dir, 'primary-bin')}`,
        '--binlog-format=ROW',
      ],
      join(dir, 'primary.log'),
      pids,
    );
    spawnDetached(
      '/usr/sbin/mariadbd',
      [...common('replica', replicaPort), '--server-id=2', `--relay-log=${join(dir, 'relay')}`],
      join(dir, 'replica.log'),
      pids,
    );
    const replica = await connect(replicaPort, 30_000);
    await connect(primaryPort, 30_000).then((c) => c.end());
    try {
      await replica.query(
        `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primaryPort}, ` +
          `MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos`,
      );
      await replica.query('START SLAVE');
      await eventually(async () => {
        const status = await slaveStatus(replica);
        return status.Slave_IO_Running === 'Yes' && status.Slave_SQL_Running === 'Yes'
          ? true
          : undefined;
      }, 30_000);
    } finally {
      await replica.end();
    }
    return {
      primary: { host: '127.0.0.1', port: primaryPort },
      replica: { host: '127.0.0.1', port: replicaPort },
    };
  });
}

/** A root connection to a server of the pair, retried while it starts. */
export function connect(port: number, timeoutMs = 5000): Promise<Connection> {
  return eventually(
    () =>
      createConnection({
        host: '127.0.0.1',
        port,
        user: 'root',
        password: '',
        timezone: 'Z',
      }).catch(() => undefined),
    timeoutMs,
  );
}

export async function slaveStatus(connection: Connection): Promise<Record<string, unknown>> {
  const [rows] = await connection.query('SHOW SLAVE STATUS');
  return (rows as Record<string, unknown>[])[0] ?? {};
}
