import { type Socket, connect as connectSocket } from 'node:net';
import type { OnApplicationShutdown } from '@nestjs/common';
import { type Connection, createConnection } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../../config/app-config';
import { withTimeout } from '../time/with-timeout';
import { type NodeState, type WsrepState, nodeStateOf, preferredNode } from './database-node-state';

/** How long a node may take to connect or answer its check before it counts as down. */
const CHECK_TIMEOUT_MS = 1000;

interface Node {
  name: string;
  host: string;
  port: number;
  state: NodeState;
  /** The monitor's own connection (not the pool's): one per node, opened again when lost. */
  monitor: Connection | undefined;
}

/** The pool's connections as its public events show them (mysql2's PoolConnection). */
interface PooledConnection {
  stream: Socket;
  destroy(): void;
}
interface Pool {
  on(
    event: 'connection' | 'acquire' | 'release',
    listener: (connection: PooledConnection) => void,
  ): void;
}

/** A node as readiness shows it: by its place in DB_HOSTS, never its address. */
export type NodeReport = { status: NodeState['status']; current: boolean } & Partial<WsrepState>;

/**
 * The nodes of a multi-primary cluster (DB_HOSTS, MariaDB Galera) and the one this process writes
 * through: the first usable one in DB_HOSTS' order (database-node-state.ts), so a process moves
 * back to its preferred node once that is synced again (each process may list the nodes in its own
 * order: the load spreads). Every node is checked every DB_NODE_CHECK_INTERVAL_MS on a connection
 * of its own, and at once when a pooled connection to the current node is lost.
 *
 * The pool follows without patching mysql2 or TypeORM: its connections are opened by `stream`
 * (mysql2's socket factory) to the node current at that moment, and a connection to a node no
 * longer current is destroyed when the pool gets it back, or at once when it lies idle. Without
 * DB_HOSTS nothing here runs: no monitor, no statement, the pool connects to DB_HOST as always.
 */
export class DatabaseNodes implements OnApplicationShutdown {
  private readonly nodes: Node[];
  private currentIndex = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;
  private readonly nodeOfSocket = new WeakMap<Socket, number>();
  private readonly nodeOfConnection = new WeakMap<PooledConnection, number>();
  private readonly idle = new Set<PooledConnection>();

  constructor(
    private readonly db: DatabaseConfig,
    private readonly logger: Logger,
  ) {
    this.nodes = db.cluster.nodes.map(({ host, port }, i) => ({
      name: `node-${i + 1}`,
      host,
      port,
      state: { status: 'unchecked', wsrep: null },
      monitor: undefined,
    }));
  }

  get configured(): boolean {
    return this.nodes.length > 0;
  }

  /**
   * Checks every node, then keeps checking them: the configuration to open the database with (its
   * host and port: the usable node). Throws, naming each node's state, when none is usable.
   */
  async start(): Promise<DatabaseConfig> {
    if (!this.configured) return this.db;
    await this.checkAll();
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.checkAll(), this.db.cluster.checkIntervalMs);
      this.timer.unref();
    }
    const node = this.nodes[this.currentIndex];
    if (node.state.status !== 'usable')
      throw new Error(
        `No database node of DB_HOSTS is usable: ${this.nodes
          .map((n) => `${n.host}:${n.port} ${n.state.status} (${n.state.message ?? ''})`)
          .join('; ')}`,
      );
    return { ...this.db, host: node.host, port: node.port };
  }

  /** The pool's options (TypeORM `extra`): connections open to the current node (mysql2 `stream`). */
  poolExtra(): { stream?: () => Socket } {
    return this.configured ? { stream: () => this.openSocket() } : {};
  }

  /** Follows the pool's connections: one to a node no longer current is not used again. */
  watch(dataSource: DataSource): void {
    if (!this.configured) return;
    const pool = (dataSource.driver as unknown as { pool: Pool }).pool;
    pool.on('connection', (connection) => {
      this.nodeOfConnection.set(connection, this.nodeOfSocket.get(connection.stream) ?? -1);
      connection.stream.once('close', () => this.idle.delete(connection));
    });
    pool.on('acquire', (connection) => this.idle.delete(connection));
    pool.on('release', (connection) => {
      if (this.isStale(connection)) connection.destroy();
      else this.idle.add(connection);
    });
  }

  /** For readiness: the current node and each node's state, by its place in DB_HOSTS. */
  report(): { usable: boolean; current: string | null; nodes: Record<string, NodeReport> } {
    const current = this.nodes[this.currentIndex];
    const usable = current?.state.status === 'usable';
    return {
      usable,
      current: usable ? current.name : null,
      nodes: Object.fromEntries(
        this.nodes.map((n, i) => [
          n.name,
          {
            status: n.state.status,
            current: usable && i === this.currentIndex,
            ...(n.state.wsrep ?? {}),
          },
        ]),
      ),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(
      this.nodes.map(async (n) => {
        await n.monitor?.end().catch(() => undefined);
        n.monitor = undefined;
      }),
    );
  }

  private openSocket(): Socket {
    const index = this.currentIndex;
    const node = this.nodes[index];
    const socket = connectSocket(node.port, node.host);
    socket.setNoDelay(true);
    socket.once('connect', () => socket.setKeepAlive(true));
    this.nodeOfSocket.set(socket, index);
    // A node that refuses, resets or closes the pool's connection is checked now, not at the next
    // interval: a killed node's traffic moves within a check's time.
    const lost = () => {
      if (!this.stopped && index === this.currentIndex) void this.checkAll();
    };
    socket.once('error', lost);
    socket.once('end', lost);
    return socket;
  }

  private isStale(connection: PooledConnection): boolean {
    const usable = this.nodes[this.currentIndex].state.status === 'usable';
    return !usable || this.nodeOfConnection.get(connection) !== this.currentIndex;
  }

  /** Checks every node (one pass at a time: a pass asked for during one waits for it). */
  private checkAll(): Promise<void> {
    this.checking ??= Promise.all(this.nodes.map((n) => this.check(n)))
      .then(() => this.choose())
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async check(node: Node): Promise<void> {
    const before = node.state.status;
    try {
      const monitor = (node.monitor ??= await this.openMonitor(node));
      const [variables] = await withTimeout(
        monitor.query("SHOW GLOBAL VARIABLES LIKE 'wsrep\\_on'"),
        CHECK_TIMEOUT_MS,
        'no answer in time',
      );
      const [status] = await withTimeout(
        monitor.query("SHOW GLOBAL STATUS LIKE 'wsrep\\_%'"),
        CHECK_TIMEOUT_MS,
        'no answer in time',
      );
      node.state = nodeStateOf(valuesOf(variables).wsrep_on, valuesOf(status));
    } catch (err) {
      node.monitor?.destroy();
      node.monitor = undefined;
      node.state = { status: 'down', wsrep: null, message: (err as Error).message };
    }
    if (node.state.status !== before && !this.stopped)
      this.logger.info({ node: `${node.host}:${node.port}`, ...node.state }, 'database node state');
  }

  private async openMonitor(node: Node): Promise<Connection> {
    const monitor = await createConnection({
      host: node.host,
      port: node.port,
      user: this.db.user,
      password: this.db.password,
      connectTimeout: CHECK_TIMEOUT_MS,
    });
    monitor.on('error', () => undefined); // a lost connection fails the next check's query
    return monitor;
  }

  /** Moves to the first usable node; connections lying idle to another are closed at once. */
  private choose(): void {
    const next = preferredNode(this.nodes.map((n) => n.state));
    if (next === -1 || next === this.currentIndex) return;
    const [from, to] = [this.nodes[this.currentIndex], this.nodes[next]];
    this.currentIndex = next;
    this.logger.warn(
      { from: `${from.host}:${from.port}`, to: `${to.host}:${to.port}`, fromState: from.state },
      'database writes move to another node',
    );
    for (const connection of this.idle)
      if (this.isStale(connection)) {
        this.idle.delete(connection);
        connection.destroy();
      }
  }
}

function valuesOf(rows: unknown): Record<string, string> {
  return Object.fromEntries(
    (rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, r.Value]),
  );
}

/**
 * The configuration a short-lived tool (the TypeORM CLI) connects with: with DB_HOSTS, its first
 * usable node, found by one check of each; else the one server.
 */
export async function onUsableNode(db: DatabaseConfig, logger: Logger): Promise<DatabaseConfig> {
  const nodes = new DatabaseNodes(db, logger);
  try {
    return await nodes.start();
  } finally {
    await nodes.onApplicationShutdown();
  }
}
