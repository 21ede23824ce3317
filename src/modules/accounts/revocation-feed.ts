import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { isCluster } from '../../common/queues/redis-connections';
import { withTimeout } from '../../common/time/with-timeout';
import { AppConfig } from '../../config/app-config';
import { AuthRevocations, revocationChannel, revocationOf } from './auth-revocations';

/** How often the subscription is asked whether it still holds. */
const HEARTBEAT_MS = 1000;
/** A subscription or a heartbeat unanswered this long: the connection is taken for lost. */
const ANSWER_TIMEOUT_MS = 2000;
/** How long a start waits for the first subscription (the database decides meanwhile). */
const FIRST_SUBSCRIPTION_WAIT_MS = 2000;

/**
 * An API process's ear on the revocations: a subscriber connection of its own (not ioredis's), so
 * that the process knows when it holds. Until subscribed, and whenever the connection is lost, the
 * caches are suspended; subscribed again, they forget all. A half-open connection (it reports
 * nothing) is found by a PING every HEARTBEAT_MS and dropped.
 *
 * On a Redis Cluster a PUBLISH reaches every node's subscribers: each new connection goes to the
 * next of REDIS_CLUSTER_NODES, so that one node down does not keep the process deaf (ioredis's
 * Cluster moves its subscriber without telling what it missed). The API process's only.
 */
@Injectable()
export class RevocationFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly nodes: readonly { host: string; port: number }[];
  private readonly channel: string;
  private connection: Redis | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  /** Connections made, to pick the next node. */
  private attempts = 0;
  /** Connections lost since the last subscription, to space the next attempts. */
  private failures = 0;
  private up = false;
  private stopped = false;
  private firstSubscription: (() => void) | undefined;

  constructor(
    private readonly revocations: AuthRevocations,
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    const { redis } = config;
    this.nodes = isCluster(redis) ? redis.clusterNodes : [{ host: redis.host, port: redis.port }];
    this.channel = revocationChannel(config);
    revocations.feedDown();
  }

  /** Serves with the feed up when Redis answers in time; otherwise from the database meanwhile. */
  async onApplicationBootstrap(): Promise<void> {
    const subscribed = new Promise<void>((resolve) => (this.firstSubscription = resolve));
    this.connect();
    await withTimeout(subscribed, FIRST_SUBSCRIPTION_WAIT_MS, 'not subscribed yet').catch(
      () => undefined,
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.reconnect);
    clearInterval(this.heartbeat);
    this.connection?.disconnect();
  }

  private connect(): void {
    if (this.stopped) return;
    const { host, port } = this.nodes[this.attempts++ % this.nodes.length];
    const connection = new Redis({
      host,
      port,
      password: this.config.redis.password,
      // Named, with the process, for operators (CLIENT LIST) and the tests that cut it.
      connectionName: `${this.channel}:${process.pid}`,
      // Not reconnected in place: a new connection (maybe to another node) replaces it, below.
      retryStrategy: () => null,
      // Subscribed by hand on each connection, to know when the subscription holds.
      autoResubscribe: false,
      maxRetriesPerRequest: 0,
      connectTimeout: ANSWER_TIMEOUT_MS,
      commandTimeout: ANSWER_TIMEOUT_MS,
    });
    this.connection = connection;
    connection.on('error', () => undefined); // its 'close' is what matters
    connection.on('message', (_channel: string, message: string) => this.heard(message));
    connection.once('ready', () => void this.subscribe(connection));
    connection.once('close', () => this.lost());
    connection.once('end', () => {
      if (this.stopped) return;
      this.failures++;
      const delayMs = Math.min((this.failures - 1) * 100, 1000);
      this.reconnect = setTimeout(() => this.connect(), delayMs);
      this.reconnect.unref();
    });
  }

  private async subscribe(connection: Redis): Promise<void> {
    try {
      await connection.subscribe(this.channel);
    } catch {
      connection.disconnect();
      return;
    }
    if (this.stopped || connection !== this.connection) return;
    this.failures = 0;
    this.up = true;
    this.revocations.feedUp();
    this.logger.info({ channel: this.channel }, 'auth revocation feed subscribed');
    this.heartbeat = setInterval(
      () => void connection.ping().catch(() => connection.disconnect()),
      HEARTBEAT_MS,
    );
    this.heartbeat.unref();
    this.firstSubscription?.();
    this.firstSubscription = undefined;
  }

  private lost(): void {
    clearInterval(this.heartbeat);
    if (!this.up) return;
    this.up = false;
    this.revocations.feedDown();
    if (!this.stopped)
      this.logger.warn(
        { channel: this.channel },
        'auth revocation feed lost: credentials are checked against the database until it is back',
      );
  }

  private heard(message: string): void {
    const revocation = revocationOf(message);
    if (revocation) return this.revocations.forget(revocation);
    this.logger.warn({ message: message.slice(0, 200) }, 'unreadable revocation: forgetting all');
    this.revocations.forgetAll();
  }
}
