import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Connection } from 'mysql2/promise';
import { eventually } from './eventually';
import { freePort } from './redis-server';
import { connect } from './replica-pair';
import { sharedServer, sharedServersDir, spawnDetached } from './shared-servers';

const run = promisify(execFile);

/** Debian's Galera 4 provider (package `galera-4`, which `mariadb-server` brings). */
export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';

export interface GaleraNode {
  name: string;
  host: string;
  port: number;
  /** Its my.cnf: `mariadbd --defaults-file=<it>` starts the node again (it rejoins by IST). */
  defaultsFile: string;
  /** Where the running node writes its process id. */
  pidFile: string;
}

export interface GaleraCluster {
  nodes: GaleraNode[];
}

/**
 * A 3-node MariaDB Galera cluster of the test run's own (Debian's mariadbd with `galera-4`'s
 * provider) on free ports of 127.0.0.1, started once per run (sharedServer): the first node
 * bootstraps the cluster from a fresh data directory, the other two join it by state transfer
 * (rsync). The nodes run as the `mysql` user (`--user=mysql`: the rsync transfer writes the
 * joiner's files as the server's user; as root it fails on `ibdata1`), with their own directories
 * owned by it. Root has no password, as on the machine's server. Where `galera-4` is missing this
 * fails saying what to install: the tests that need the cluster are never skipped.
 */
export function galeraCluster(name = 'galera'): Promise<GaleraCluster> {
  return sharedServer(name, startGaleraCluster);
}

/**
 * Starts a 3-node cluster in `dir` (which must exist), writing down each process started in `pids`:
 * galeraCluster's start, and what a benchmark uses outside a test run.
 */
export async function startGaleraCluster(dir: string, pids: number[]): Promise<GaleraCluster> {
  if (!existsSync(GALERA_PROVIDER))
    throw new Error(
      `Galera is not installed (${GALERA_PROVIDER} is missing): install Debian's galera-4 ` +
        '(apt-get install galera-4) beside mariadb-server.',
    );
  const { stdout } = await run('id', ['-u', 'mysql']);
  const { stdout: group } = await run('id', ['-g', 'mysql']);
  const [uid, gid] = [Number(stdout.trim()), Number(group.trim())];
  const nodes: {
    name: string;
    dir: string;
    port: number;
    gcomm: number;
    ist: number;
    sst: number;
  }[] = [];
  for (const name of ['g1', 'g2', 'g3']) {
    const nodeDir = join(dir, name);
    await mkdir(join(nodeDir, 'data'), { recursive: true });
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    nodes.push({
      name,
      dir: nodeDir,
      port: ports[0],
      gcomm: ports[1],
      ist: ports[2],
      sst: ports[3],
    });
  }
  const members = nodes.map((n) => `127.0.0.1:${n.gcomm}`).join(',');
  for (const node of nodes) {
    await writeFile(
      join(node.dir, 'my.cnf'),
      [
        '[mariadbd]',
        `datadir=${join(node.dir, 'data')}`,
        `socket=${join(node.dir, 'mysqld.sock')}`,
        `pid-file=${join(node.dir, 'mysqld.pid')}`,
        `port=${node.port}`,
        'bind-address=127.0.0.1',
        'user=mysql',
        'skip-name-resolve',
        'binlog_format=ROW',
        'default_storage_engine=InnoDB',
        'innodb_autoinc_lock_mode=2',
        'innodb_buffer_pool_size=64M',
        'innodb_log_file_size=16M',
        'character-set-server=utf8mb4',
        'collation-server=utf8mb4_unicode_ci',
        'wsrep_on=ON',
        `wsrep_provider=${GALERA_PROVIDER}`,
        'wsrep_cluster_name=scheduling_test',
        `wsrep_cluster_address=gcomm://${members}`,
        'wsrep_node_address=127.0.0.1',
        `wsrep_node_name=${node.name}`,
        `wsrep_provider_options="base_port=${node.gcomm};ist.recv_addr=127.0.0.1:${node.ist};gcache.size=64M"`,
        'wsrep_sst_method=rsync',
        `wsrep_sst_receive_address=127.0.0.1:${node.sst}`,
        '',
      ].join('\n'),
    );
    await chownTree(node.dir, uid, gid);
  }
  await chown(dir, uid, gid);
  const [first, ...joiners] = nodes;
  await run(
    'mariadb-install-db',
    [
      `--defaults-file=${join(first.dir, 'my.cnf')}`,
      '--user=mysql',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { timeout: 60_000 },
  );
  const start = (node: (typeof nodes)[number], ...more: string[]) =>
    spawnDetached(
      '/usr/sbin/mariadbd',
      [`--defaults-file=${join(node.dir, 'my.cnf')}`, ...more],
      join(node.dir, 'stdout.log'),
      pids,
    );
  start(first, '--wsrep-new-cluster');
  await synced(first.port, 1);
  for (const node of joiners) start(node);
  for (const node of nodes) await synced(node.port, nodes.length);
  return {
    nodes: nodes.map((n) => ({
      name: n.name,
      host: '127.0.0.1',
      port: n.port,
      defaultsFile: join(n.dir, 'my.cnf'),
      pidFile: join(n.dir, 'mysqld.pid'),
    })),
  };
}

/** Kills a node as a crash would (SIGKILL, no shutdown), and waits until its process is gone. */
export async function killNode(node: GaleraNode): Promise<number> {
  const pid = Number((await readFile(node.pidFile, 'utf8')).trim());
  process.kill(pid, 'SIGKILL');
  await eventually(() => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch {
      return true;
    }
  }, 10_000);
  return pid;
}

/**
 * Starts a node of `galeraCluster(cluster)` again, as systemd's `galera_recovery` does: after a
 * crash its grastate.dat says no position (seqno -1), so `--wsrep-recover` first reads the last
 * committed one from InnoDB and the node starts from it, rejoining by IST when the others' gcache
 * holds what it missed (else by SST). Appends to its log, `stdout.log` beside its my.cnf. Its
 * process is written into the cluster's `pids.json`, which the run's teardown (stopSharedServers)
 * stops with the cluster's first processes: a test that restarts a node never leaves it running.
 */
export async function restartNode(cluster: string, node: GaleraNode): Promise<number> {
  const recoverLog = join(dirname(node.defaultsFile), 'recover.log');
  await run(
    '/usr/sbin/mariadbd',
    [`--defaults-file=${node.defaultsFile}`, '--wsrep-recover', `--log-error=${recoverLog}`],
    { timeout: 60_000 },
  );
  const recovered = await readFile(recoverLog, 'utf8');
  const position = /Recovered position:\s*(\S+:-?\d+)/.exec(recovered)?.[1];
  if (position === undefined) throw new Error(`no position recovered:\n${recovered.slice(-2000)}`);
  const pids: number[] = [];
  const file = join(sharedServersDir(), cluster, 'pids.json');
  const recorded = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as number[]) : [];
  const pid = spawnDetached(
    '/usr/sbin/mariadbd',
    [`--defaults-file=${node.defaultsFile}`, `--wsrep-start-position=${position}`],
    nodeLog(node),
    pids,
  );
  await writeFile(file, JSON.stringify([...recorded, pid]));
  return pid;
}

/** The node's server log (stdout and stderr of each of its processes, appended). */
export function nodeLog(node: GaleraNode): string {
  return join(dirname(node.defaultsFile), 'stdout.log');
}

async function chownTree(path: string, uid: number, gid: number): Promise<void> {
  await run('chown', ['-R', `${uid}:${gid}`, path]);
}

/** Waits until the node answers, is synced and sees `size` members in a primary component. */
export async function synced(port: number, size: number, timeoutMs = 90_000): Promise<void> {
  const connection = await connect(port, timeoutMs);
  try {
    await eventually(async () => {
      const status = await wsrepStatus(connection);
      return status.wsrep_ready === 'ON' &&
        status.wsrep_cluster_status === 'Primary' &&
        status.wsrep_local_state_comment === 'Synced' &&
        Number(status.wsrep_cluster_size) === size
        ? true
        : undefined;
    }, timeoutMs);
  } finally {
    await connection.end();
  }
}

/** The node's `wsrep_%` status variables. */
export async function wsrepStatus(connection: Connection): Promise<Record<string, string>> {
  const [rows] = await connection.query("SHOW STATUS LIKE 'wsrep\\_%'");
  return Object.fromEntries(
    (rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, r.Value]),
  );
}
