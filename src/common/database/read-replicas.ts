import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { AppConfig, type ReplicasConfig } from '../../config/app-config';
import { ROOT_LOGGER } from '../logging/logging.module';
import { RecentWrites } from './recent-writes';
import { ReplicaState, replicaStateOf } from './replica-state';

/** A replica's connection pool and what its last check found. */
interface Replica {
  name: string;
  dataSource: DataSource;
  state: ReplicaState;
  checking: boolean;
}

/** Errors of the connection, not of the statement: the replica is away (the read goes on elsewhere). */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
]);

/**
 * Where a read goes. Only reads that inform call `read` (one that decides a write runs in its
 * transaction on the primary): to a serving replica (round robin), unless its account wrote within
 * the read-your-writes window (RecentWrites) or none serves. Each replica is checked every
 * DB_REPLICA_CHECK_INTERVAL_MS and skipped while not replicating, lagging or not answering; a read
 * that fails for the connection's sake is done again on the primary.
 */
@Injectable()
export class ReadReplicas implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly replicas: Replica[];
  private readonly config: ReplicasConfig;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
    private readonly recentWrites: RecentWrites,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    this.config = config.db.replicas;
    this.replicas = this.config.nodes.map(({ host, port }) => ({
      name: `${host}:${port}`,
      dataSource: new DataSource({
        ...(primary.options as object),
        type: primary.options.type,
        host,
        port,
        username: this.config.user,
        password: this.config.password,
        // Reads only: no migrations, a smaller pool.
        migrations: [],
        migrationsRun: false,
        poolSize: Math.max(2, Math.ceil(config.db.poolSize / 2)),
        // A replica that does not answer must not hold a read: the primary answers instead.
        connectTimeout: 2000,
      } as ConstructorParameters<typeof DataSource>[0]),
      state: { status: 'connecting', lagSeconds: null, message: 'not checked yet' },
      checking: false,
    }));
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.configured) return;
    // The first check before serving, so that the first reads already use the replicas.
    await this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.config.checkIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(
      this.replicas.filter((r) => r.dataSource.isInitialized).map((r) => r.dataSource.destroy()),
    );
  }

  /**
   * For readiness, which anyone may call: each replica by its place (`replica-1`…) with its status
   * and lag, never its address or the server's error text (the log has both).
   */
  states(): Record<string, Pick<ReplicaState, 'status' | 'lagSeconds'>> {
    return Object.fromEntries(
      this.replicas.map((r, i) => [
        `replica-${i + 1}`,
        { status: r.state.status, lagSeconds: r.state.lagSeconds },
      ]),
    );
  }

  /** An informative read of the account's data; `read` must only read: it may run twice. */
  async read<T>(accountId: number, read: (manager: EntityManager) => Promise<T>): Promise<T> {
    const replica = await this.pick(accountId);
    if (replica === undefined) return read(this.primary.manager);
    try {
      return await read(replica.dataSource.manager);
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      replica.state = { status: 'down', lagSeconds: null, message: errorText(err) };
      this.logger.warn({ replica: replica.name, err }, 'read replica failed; read on the primary');
      return read(this.primary.manager);
    }
  }

  private async pick(accountId: number): Promise<Replica | undefined> {
    if (!this.configured) return undefined;
    const serving = this.replicas.filter((r) => r.state.status === 'serving');
    if (serving.length === 0) return undefined;
    if (await this.recentWrites.wrote(accountId)) return undefined;
    return serving[this.next++ % serving.length];
  }

  private async checkAll(): Promise<void> {
    await Promise.all(this.replicas.map((r) => this.check(r)));
  }

  private async check(replica: Replica): Promise<void> {
    if (replica.checking) return;
    replica.checking = true;
    const before = replica.state.status;
    try {
      if (!replica.dataSource.isInitialized) await replica.dataSource.initialize();
      const rows = await replica.dataSource.query<Record<string, unknown>[]>('SHOW SLAVE STATUS');
      replica.state = replicaStateOf(rows[0], this.config.maxLagSeconds);
    } catch (err) {
      replica.state = { status: 'down', lagSeconds: null, message: errorText(err) };
    } finally {
      replica.checking = false;
    }
    if (replica.state.status !== before)
      this.logger.info({ replica: replica.name, ...replica.state }, 'read replica state');
  }
}

function isConnectionError(err: unknown): boolean {
  const source = err instanceof QueryFailedError ? (err.driverError as unknown) : err;
  const code = (source as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECTION_ERRORS.has(code);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
