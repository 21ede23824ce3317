import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { Environment } from './environment';
import { commaList, hostPortList } from './environment-values';
import { parseEnvironment } from './parse-environment';

/** The development secret: never accepted in production (see parseEnvironment). */
const DEVELOPMENT_SECRET = 'development-only-secret-do-not-use-in-production';

/** The SMS provider: the worker's log, or a Twilio-style REST API. */
export type SmsConfig =
  | { driver: 'log' }
  | { driver: 'http'; apiUrl: string; accountSid: string; authToken: string; from: string };

/** The queue dashboard at `/queues` on the worker's port, behind the operator's Basic auth. */
type DashboardConfig = { enabled: false } | { enabled: true; user: string; password: string };

/** The configuration's sections, from the validated environment: AppConfig's fields and types. */
function sectionsOf(e: Environment, raw: NodeJS.ProcessEnv) {
  const sms: SmsConfig =
    e.SMS_DRIVER === 'http'
      ? {
          driver: 'http',
          apiUrl: e.SMS_API_URL.replace(/\/+$/, ''),
          accountSid: e.SMS_ACCOUNT_SID,
          authToken: e.SMS_AUTH_TOKEN,
          from: e.SMS_FROM,
        }
      : { driver: 'log' };
  const nodes = hostPortList(e.DB_HOSTS);
  const dashboard: DashboardConfig = e.BULL_BOARD_ENABLED
    ? { enabled: true, user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD }
    : { enabled: false };
  return {
    env: e.NODE_ENV,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      metricsPort: e.METRICS_PORT,
      drainMs: e.SHUTDOWN_DRAIN_MS,
      trustProxy: trustProxyOf(e.TRUST_PROXY),
    },
    db: {
      /** The one server; with DB_HOSTS, its first node (where a process without failover goes). */
      host: nodes[0]?.host ?? e.DB_HOST,
      port: nodes[0]?.port ?? e.DB_PORT,
      user: e.DB_USER,
      password: raw.DB_PASSWORD ?? '',
      name: e.DB_NAME,
      poolSize: e.DB_POOL_SIZE,
      migrateOnStart: e.DB_MIGRATE_ON_START,
      /** A multi-primary cluster (none: the one server): writes go to one node, failing over. */
      cluster: { nodes, checkIntervalMs: e.DB_NODE_CHECK_INTERVAL_MS },
      /** Read replicas (none: every read on the primary) and read-your-writes (see ReadRouting). */
      replicas: {
        nodes: hostPortList(e.DB_REPLICAS),
        user: e.DB_REPLICA_USER || e.DB_USER,
        password: e.DB_REPLICA_USER ? (raw.DB_REPLICA_PASSWORD ?? '') : (raw.DB_PASSWORD ?? ''),
        maxLagSeconds: e.DB_REPLICA_MAX_LAG_S,
        checkIntervalMs: e.DB_REPLICA_CHECK_INTERVAL_MS,
        readYourWritesMs: e.DB_READ_YOUR_WRITES_MS,
      },
    },
    redis: {
      host: e.REDIS_HOST,
      port: e.REDIS_PORT,
      password: raw.REDIS_PASSWORD || undefined,
      db: e.REDIS_DB,
      clusterNodes: hostPortList(e.REDIS_CLUSTER_NODES),
    },
    queue: { prefix: e.QUEUE_PREFIX },
    secret: e.APP_SECRET ?? DEVELOPMENT_SECRET,
    log: { level: e.LOG_LEVEL },
    auth: { cacheTtlMs: e.AUTH_CACHE_TTL_MS },
    /** The worker's HTTP side: health, metrics, and the operators' queue dashboard. */
    worker: { port: e.WORKER_PORT, dashboard },
    outbox: {
      relayIntervalMs: e.OUTBOX_RELAY_INTERVAL_MS,
      relayDelayMs: e.OUTBOX_RELAY_DELAY_MS,
      redeliverAfterMs: e.OUTBOX_REDELIVER_AFTER_MS,
    },
    /** Where webhooks may go and how failed deliveries are retried (see OutboundTargetPolicy). */
    webhooks: {
      extraPorts: extraPortsOf(e.WEBHOOK_ALLOWED_PORTS),
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      /** Delay before retry 1, 2, …, already multiplied by the time scale. */
      retryDelaysMs: numberList(e.WEBHOOK_RETRY_DELAYS_MS).map((ms) =>
        Math.round(ms * e.WEBHOOK_TIME_SCALE),
      ),
      /** Failures continuing this long disable a subscription (time scale applied). */
      disableAfterMs: Math.round(e.WEBHOOK_DISABLE_AFTER_MS * e.WEBHOOK_TIME_SCALE),
      sweepIntervalMs: e.WEBHOOK_SWEEP_INTERVAL_MS,
      sweepGraceMs: e.WEBHOOK_SWEEP_GRACE_MS,
      /** An attempt's limits: to connect (DNS; TCP and TLS), to the response's headers, in all. */
      timeouts: {
        connectMs: e.WEBHOOK_CONNECT_TIMEOUT_MS,
        headersMs: e.WEBHOOK_HEADERS_TIMEOUT_MS,
        totalMs: e.WEBHOOK_TIMEOUT_MS,
      },
      /** Deliveries in flight at once per worker process (see WebhookFairness). */
      inFlight: {
        perTarget: e.WEBHOOK_TARGET_IN_FLIGHT,
        perSlowTarget: e.WEBHOOK_SLOW_TARGET_IN_FLIGHT,
        perAccount: e.WEBHOOK_ACCOUNT_IN_FLIGHT,
      },
      /** Where deliveries come from (`GET /meta`'s `hooks`); an address is its /32 or /128. */
      sourceCidrs: commaList(e.WEBHOOK_SOURCE_CIDRS).map((part) =>
        part.includes('/') ? part : `${part}/${isIP(part) === 4 ? 32 : 128}`,
      ),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    /** Client notifications: the channels and how a failed send is retried. */
    notifications: {
      /** SMTP, through which the worker sends client e-mail (nodemailer). */
      mail: {
        host: e.SMTP_HOST,
        port: e.SMTP_PORT,
        secure: e.SMTP_SECURE,
        requireTls: e.SMTP_REQUIRE_TLS,
        auth: e.SMTP_USER === '' ? undefined : { user: e.SMTP_USER, password: e.SMTP_PASSWORD },
        from: e.MAIL_FROM,
      },
      sms,
      retryAttempts: e.NOTIFICATION_RETRY_ATTEMPTS,
      retryDelayMs: e.NOTIFICATION_RETRY_DELAY_MS,
    },
    /** Per-IP limits of API requests (see RequestLimiter). */
    limits: {
      enabled: e.RATE_LIMIT_ENABLED,
      perSecond: e.RATE_LIMIT_PER_SECOND,
      concurrent: e.RATE_LIMIT_CONCURRENT,
      slotTtlMs: e.RATE_LIMIT_SLOT_TTL_MS,
    },
    /** Calendar sync: where busy sources may be, how often the worker looks for due ones. */
    calendarSync: {
      extraPorts: extraPortsOf(e.CALENDAR_SYNC_ALLOWED_PORTS),
      allowPrivateTargets: e.CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES,
      scanIntervalMs: e.CALENDAR_SYNC_SCAN_INTERVAL_MS,
      timeoutMs: e.CALENDAR_SYNC_TIMEOUT_MS,
      maxBytes: e.CALENDAR_SYNC_MAX_BYTES,
      maxEvents: e.CALENDAR_SYNC_MAX_EVENTS,
      maxOccurrences: e.CALENDAR_SYNC_MAX_OCCURRENCES,
    },
    /** Kept availability answers (KeptAnswersHandler); ttl 0 = none. */
    availability: { cacheTtlMs: e.AVAILABILITY_CACHE_TTL_MS },
  };
}

/**
 * The service's configuration, validated once at start and injected by this class as the token.
 * Nothing else in the code reads process.env. Its fields are the sections sectionsOf builds.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the class is the token, fromEnvironment assigns the fields
export interface AppConfig extends Readonly<ReturnType<typeof sectionsOf>> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- as above
export class AppConfig {
  /** Builds the configuration from an environment (process.env by default). */
  static fromEnvironment(raw: NodeJS.ProcessEnv = process.env): AppConfig {
    return Object.assign(new AppConfig(), sectionsOf(parseEnvironment(raw), raw));
  }

  /** Returns a copy with some parts replaced (tests, benchmarks). */
  with(overrides: Partial<{ -readonly [K in keyof AppConfig]: AppConfig[K] }>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype) as AppConfig, this, overrides);
  }
}

export type DatabaseConfig = AppConfig['db'];
export type ReplicasConfig = DatabaseConfig['replicas'];
export type ClusterConfig = DatabaseConfig['cluster'];
export type RedisConfig = AppConfig['redis'];
export type WebhooksConfig = AppConfig['webhooks'];
export type WebhookInFlightLimits = WebhooksConfig['inFlight'];
export type MailConfig = AppConfig['notifications']['mail'];
export type LimitsConfig = AppConfig['limits'];

/** Fastify's `trustProxy`: false, a hop count, or a comma-separated list of addresses and CIDRs. */
function trustProxyOf(text: string): false | number | string {
  const value = text.trim();
  if (['false', 'off', 'no', '0'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return commaList(value).join(','); // no empty entry: trustProxy's check refuses them
}

function numberList(text: string): number[] {
  return commaList(text).map(Number);
}

/** Ports allowed besides 80 and 443; 'any' when the operator allows every port (`*`). */
function extraPortsOf(text: string): number[] | 'any' {
  return text === '*' ? 'any' : numberList(text);
}

/**
 * Loads `.env` from the working directory when there is one (variables already set win), for the
 * entry points only: tests build their configuration explicitly.
 */
export function loadDotEnv(cwd = process.cwd()): void {
  const file = resolve(cwd, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}
