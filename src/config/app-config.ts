import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { hostPortList } from './environment-values';
import { parseEnvironment } from './parse-environment';

/** The development secret: never accepted in production (see parseEnvironment). */
const DEVELOPMENT_SECRET = 'development-only-secret-do-not-use-in-production';

export interface DatabaseConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  name: string;
  poolSize: number;
  migrateOnStart: boolean;
  /** Read replicas; empty = every read on the primary. */
  replicas: ReplicasConfig;
}

/** Read replicas: where they are, when one is skipped, and read-your-writes (see ReadRouting). */
export interface ReplicasConfig {
  nodes: { host: string; port: number }[];
  user: string;
  password: string;
  maxLagSeconds: number;
  checkIntervalMs: number;
  /** After an account's write, its reads go to the primary this long. */
  readYourWritesMs: number;
}

/** Where webhooks may go and how failed deliveries are retried (see OutboundTargetPolicy). */
export interface WebhooksConfig {
  /** Ports allowed besides 80 and 443; 'any' when the operator allows every port. */
  extraPorts: number[] | 'any';
  allowPrivateTargets: boolean;
  /** Delay before retry 1, 2, …, already multiplied by the time scale. */
  retryDelaysMs: number[];
  /** Failures continuing this long disable a subscription (time scale applied). */
  disableAfterMs: number;
  /** How often the worker's sweeper looks for deliveries whose job was lost. */
  sweepIntervalMs: number;
  /** How long past due a pending delivery must be before the sweeper queues it again. */
  sweepGraceMs: number;
  /** How long an attempt may take: to connect, to get the response's headers, in all. */
  timeouts: WebhookTimeouts;
  /** Deliveries in flight at once per worker process (see WebhookFairness). */
  inFlight: WebhookInFlightLimits;
  /** Where deliveries come from, as CIDRs (`GET /meta`'s `hooks`); an address is its /32 or /128. */
  sourceCidrs: string[];
}

/** A webhook attempt's time limits (each phase's no longer than the whole). */
export interface WebhookTimeouts {
  /** Resolving the receiver's name, and opening the connection (TCP and TLS), each. */
  connectMs: number;
  /** From the request sent to the response's headers. */
  headersMs: number;
  /** The whole attempt. */
  totalMs: number;
}

/** Deliveries in flight at once in one worker process, to one receiver origin or of one account. */
export interface WebhookInFlightLimits {
  perTarget: number;
  /** To a receiver found slow (timing out), until it answers in time again. */
  perSlowTarget: number;
  perAccount: number;
}

/** Calendar sync: where busy sources may be, how often the worker looks for due ones. */
export interface CalendarSyncConfig {
  /** Ports allowed besides 80 and 443; 'any' when the operator allows every port. */
  extraPorts: number[] | 'any';
  allowPrivateTargets: boolean;
  scanIntervalMs: number;
  /** One source's whole sync. */
  timeoutMs: number;
  /** Bytes one sync may read from a source, all its answers together. */
  maxBytes: number;
  /** Events (VEVENTs) a source may hold. */
  maxEvents: number;
  /** Busy occurrences a source may have in the window. */
  maxOccurrences: number;
}

/** The outbox relay of the worker (see OutboxRelay). */
export interface OutboxConfig {
  relayIntervalMs: number;
  /** Undispatched rows younger than this are left to the process that wrote them. */
  relayDelayMs: number;
  /** Dispatched rows still unprocessed this long after are handed to the queue again. */
  redeliverAfterMs: number;
}

/** SMTP, through which the worker sends client e-mail (nodemailer). */
export interface MailConfig {
  host: string;
  port: number;
  /** TLS from the first byte (SMTPS); otherwise STARTTLS when offered (required with requireTls). */
  secure: boolean;
  requireTls: boolean;
  /** SMTP AUTH credentials; undefined = none. */
  auth: { user: string; password: string } | undefined;
  /** The sender address (the display name is the account's name). */
  from: string;
}

/** The SMS provider: the worker's log, or a Twilio-style REST API. */
export type SmsConfig =
  | { driver: 'log' }
  | { driver: 'http'; apiUrl: string; accountSid: string; authToken: string; from: string };

/** Client notifications: the channels and how a failed send is retried. */
export interface NotificationsConfig {
  mail: MailConfig;
  sms: SmsConfig;
  /** Attempts of one message, the first included. */
  retryAttempts: number;
  /** Bull's exponential backoff base: retry n waits (2^n - 1) times this. */
  retryDelayMs: number;
}

/** The API's HTTP side. */
export interface HttpConfig {
  host: string;
  port: number;
  publicUrl: string;
  /** Port of the API's `/metrics` listener; 0 = none. */
  metricsPort: number;
  /** How long the API keeps serving after SIGTERM, not ready, before it closes its listener. */
  drainMs: number;
  /** Which peers' X-Forwarded-For names the client (see TrustProxy). */
  trustProxy: TrustProxy;
}

/** The queue dashboard at `/queues` on the worker's port, behind the operator's Basic auth. */
export type DashboardConfig =
  { enabled: false } | { enabled: true; user: string; password: string };

/** The worker's HTTP side: health, metrics, and the operators' queue dashboard. */
export interface WorkerConfig {
  port: number;
  dashboard: DashboardConfig;
}

/** Per-IP limits of API requests (see RequestLimiter). */
export interface LimitsConfig {
  enabled: boolean;
  perSecond: number;
  concurrent: number;
  /** A concurrency slot not released within this (its pod died) frees itself. */
  slotTtlMs: number;
}

/**
 * Fastify's `trustProxy`: false (the client is the connection's peer), a hop count, or a
 * comma-separated list of trusted proxy addresses and CIDRs.
 */
export type TrustProxy = false | number | string;

export interface RedisConfig {
  host: string;
  port: number;
  password: string | undefined;
  db: number;
  /** Redis Cluster nodes: empty = the single Redis above. */
  clusterNodes: { host: string; port: number }[];
}

/**
 * The service's configuration, validated once at start and injected by this class as the token.
 * Nothing else in the code reads process.env.
 */
export class AppConfig {
  constructor(
    readonly env: 'development' | 'test' | 'production',
    readonly http: HttpConfig,
    readonly db: DatabaseConfig,
    readonly redis: RedisConfig,
    readonly queue: { prefix: string },
    readonly secret: string,
    readonly log: { level: string },
    readonly auth: { cacheTtlMs: number },
    readonly worker: WorkerConfig,
    readonly outbox: OutboxConfig,
    readonly webhooks: WebhooksConfig,
    readonly shutdownTimeoutMs: number,
    readonly notifications: NotificationsConfig,
    readonly limits: LimitsConfig,
    readonly calendarSync: CalendarSyncConfig,
    /** Kept `/availability/times` answers (see AvailabilityAnswers); ttl 0 = none. */
    readonly availability: { cacheTtlMs: number } = { cacheTtlMs: 0 },
  ) {}

  /** Builds the configuration from an environment (process.env by default). */
  static fromEnvironment(raw: NodeJS.ProcessEnv = process.env): AppConfig {
    const e = parseEnvironment(raw);
    return new AppConfig(
      e.NODE_ENV,
      {
        host: e.HOST,
        port: e.PORT,
        publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
        metricsPort: e.METRICS_PORT,
        drainMs: e.SHUTDOWN_DRAIN_MS,
        trustProxy: trustProxyOf(e.TRUST_PROXY),
      },
      {
        host: e.DB_HOST,
        port: e.DB_PORT,
        user: e.DB_USER,
        password: raw.DB_PASSWORD ?? '',
        name: e.DB_NAME,
        poolSize: e.DB_POOL_SIZE,
        migrateOnStart: e.DB_MIGRATE_ON_START,
        replicas: {
          nodes: hostPortList(e.DB_REPLICAS),
          user: e.DB_REPLICA_USER || e.DB_USER,
          password: e.DB_REPLICA_USER ? (raw.DB_REPLICA_PASSWORD ?? '') : (raw.DB_PASSWORD ?? ''),
          maxLagSeconds: e.DB_REPLICA_MAX_LAG_S,
          checkIntervalMs: e.DB_REPLICA_CHECK_INTERVAL_MS,
          readYourWritesMs: e.DB_READ_YOUR_WRITES_MS,
        },
      },
      {
        host: e.REDIS_HOST,
        port: e.REDIS_PORT,
        password: raw.REDIS_PASSWORD || undefined,
        db: e.REDIS_DB,
        clusterNodes: hostPortList(e.REDIS_CLUSTER_NODES),
      },
      { prefix: e.QUEUE_PREFIX },
      e.APP_SECRET ?? DEVELOPMENT_SECRET,
      { level: e.LOG_LEVEL },
      { cacheTtlMs: e.AUTH_CACHE_TTL_MS },
      {
        port: e.WORKER_PORT,
        dashboard: e.BULL_BOARD_ENABLED
          ? { enabled: true, user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD }
          : { enabled: false },
      },
      {
        relayIntervalMs: e.OUTBOX_RELAY_INTERVAL_MS,
        relayDelayMs: e.OUTBOX_RELAY_DELAY_MS,
        redeliverAfterMs: e.OUTBOX_REDELIVER_AFTER_MS,
      },
      {
        extraPorts: e.WEBHOOK_ALLOWED_PORTS === '*' ? 'any' : numberList(e.WEBHOOK_ALLOWED_PORTS),
        allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        retryDelaysMs: numberList(e.WEBHOOK_RETRY_DELAYS_MS).map((ms) =>
          Math.round(ms * e.WEBHOOK_TIME_SCALE),
        ),
        disableAfterMs: Math.round(e.WEBHOOK_DISABLE_AFTER_MS * e.WEBHOOK_TIME_SCALE),
        sweepIntervalMs: e.WEBHOOK_SWEEP_INTERVAL_MS,
        sweepGraceMs: e.WEBHOOK_SWEEP_GRACE_MS,
        timeouts: {
          connectMs: e.WEBHOOK_CONNECT_TIMEOUT_MS,
          headersMs: e.WEBHOOK_HEADERS_TIMEOUT_MS,
          totalMs: e.WEBHOOK_TIMEOUT_MS,
        },
        inFlight: {
          perTarget: e.WEBHOOK_TARGET_IN_FLIGHT,
          perSlowTarget: e.WEBHOOK_SLOW_TARGET_IN_FLIGHT,
          perAccount: e.WEBHOOK_ACCOUNT_IN_FLIGHT,
        },
        sourceCidrs: cidrList(e.WEBHOOK_SOURCE_CIDRS),
      },
      e.SHUTDOWN_TIMEOUT_MS,
      {
        mail: {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT,
          secure: e.SMTP_SECURE,
          requireTls: e.SMTP_REQUIRE_TLS,
          auth: e.SMTP_USER === '' ? undefined : { user: e.SMTP_USER, password: e.SMTP_PASSWORD },
          from: e.MAIL_FROM,
        },
        sms:
          e.SMS_DRIVER === 'http'
            ? {
                driver: 'http',
                apiUrl: e.SMS_API_URL.replace(/\/+$/, ''),
                accountSid: e.SMS_ACCOUNT_SID,
                authToken: e.SMS_AUTH_TOKEN,
                from: e.SMS_FROM,
              }
            : { driver: 'log' },
        retryAttempts: e.NOTIFICATION_RETRY_ATTEMPTS,
        retryDelayMs: e.NOTIFICATION_RETRY_DELAY_MS,
      },
      {
        enabled: e.RATE_LIMIT_ENABLED,
        perSecond: e.RATE_LIMIT_PER_SECOND,
        concurrent: e.RATE_LIMIT_CONCURRENT,
        slotTtlMs: e.RATE_LIMIT_SLOT_TTL_MS,
      },
      {
        extraPorts:
          e.CALENDAR_SYNC_ALLOWED_PORTS === '*' ? 'any' : numberList(e.CALENDAR_SYNC_ALLOWED_PORTS),
        allowPrivateTargets: e.CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES,
        scanIntervalMs: e.CALENDAR_SYNC_SCAN_INTERVAL_MS,
        timeoutMs: e.CALENDAR_SYNC_TIMEOUT_MS,
        maxBytes: e.CALENDAR_SYNC_MAX_BYTES,
        maxEvents: e.CALENDAR_SYNC_MAX_EVENTS,
        maxOccurrences: e.CALENDAR_SYNC_MAX_OCCURRENCES,
      },
      { cacheTtlMs: e.AVAILABILITY_CACHE_TTL_MS },
    );
  }

  /** Returns a copy with some parts replaced (tests, benchmarks). */
  with(overrides: Partial<{ -readonly [K in keyof AppConfig]: AppConfig[K] }>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype) as AppConfig, this, overrides);
  }
}

function trustProxyOf(text: string): TrustProxy {
  const value = text.trim();
  if (['false', 'off', 'no', '0'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .join(',');
}

/** `192.0.2.7, 2001:db8::/32` → `['192.0.2.7/32', '2001:db8::/32']` (checked by IsCidrList). */
function cidrList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (part.includes('/') ? part : `${part}/${isIP(part) === 4 ? 32 : 128}`));
}

function numberList(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(Number);
}

/**
 * Loads `.env` from the working directory when there is one (variables already set win), for the
 * entry points only: tests build their configuration explicitly.
 */
export function loadDotEnv(cwd = process.cwd()): void {
  const file = resolve(cwd, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}
