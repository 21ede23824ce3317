import { IsEmail, IsString, MinLength } from 'class-validator';
import { DAY } from '../common/time/durations';
import {
  bool,
  cidrs,
  decimal,
  hostPorts,
  int,
  oneOf,
  optional,
  pattern,
  ports,
  text,
  trustProxy,
  url,
  variable,
} from './environment-values';

/**
 * Every environment variable the service reads, with defaults that work on a developer machine
 * (local MySQL as root without password, local Redis). What each means is documented once, in
 * docs/configuration.md (environment.spec.ts checks that each is), and listed in `.env.example`.
 */
const VARIABLES = {
  NODE_ENV: oneOf(['development', 'test', 'production'], 'development'),
  HOST: text('0.0.0.0'),
  PORT: int(3000, 0, 65535),
  PUBLIC_URL: optional(url()),
  DB_HOST: text('127.0.0.1'),
  /** A multi-primary cluster's nodes (Galera), in this process's order of preference. */
  DB_HOSTS: hostPorts(),
  DB_NODE_CHECK_INTERVAL_MS: int(1000, 100, 60_000),
  DB_PORT: int(3306, 1, 65535),
  DB_USER: text('root'),
  DB_PASSWORD: text(''),
  DB_NAME: pattern('scheduling', /^[A-Za-z0-9_]{1,64}$/, 'must be letters, digits and _ only'),
  DB_POOL_SIZE: int(10, 1, 500),
  /** Create the database if missing and run pending migrations at start. Off in production pods. */
  DB_MIGRATE_ON_START: bool(true),
  DB_REPLICAS: hostPorts(),
  DB_REPLICA_USER: text(''),
  DB_REPLICA_PASSWORD: text(''),
  DB_REPLICA_MAX_LAG_S: int(2, 0, 3600),
  DB_REPLICA_CHECK_INTERVAL_MS: int(1000, 100, 60_000),
  DB_READ_YOUR_WRITES_MS: int(5000, 0, 600_000),
  REDIS_CLUSTER_NODES: hostPorts(),
  REDIS_HOST: text('127.0.0.1'),
  REDIS_PORT: int(6379, 1, 65535),
  REDIS_PASSWORD: text(''),
  REDIS_DB: int(0, 0, 15),
  QUEUE_PREFIX: pattern(
    'scheduling',
    /^[A-Za-z0-9_:.-]{1,64}$/,
    'must be 1-64 of A-Z a-z 0-9 _ : . -',
  ),
  APP_SECRET: optional(
    variable(
      '',
      MinLength(32, { message: 'APP_SECRET must be at least 32 characters long' }),
      IsString(),
    ),
  ),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  AUTH_CACHE_TTL_MS: int(15_000, 0, 300_000),
  AVAILABILITY_CACHE_TTL_MS: int(60_000, 0, 600_000),
  WORKER_PORT: int(3001, 0, 65535),
  METRICS_PORT: int(9464, 0, 65535),
  BULL_BOARD_ENABLED: bool(false),
  OPERATOR_USER: pattern(
    'operator',
    /^[^:\s]{1,64}$/,
    'must be 1-64 characters without ":" or spaces',
  ),
  OPERATOR_PASSWORD: text(''),
  /**
   * On SIGTERM the API answers `/health/ready` 503 and serves on this long while load balancers
   * take the pod out. Kubernetes: longer than the readiness probe's period × failure threshold.
   */
  SHUTDOWN_DRAIN_MS: int(0, 0, 300_000),
  OUTBOX_RELAY_INTERVAL_MS: int(1000, 50),
  /** Rows younger than this are left to their writer (it dispatches them after its commit). */
  OUTBOX_RELAY_DELAY_MS: int(5000, 0),
  OUTBOX_REDELIVER_AFTER_MS: int(60_000, 100),
  WEBHOOK_ALLOWED_PORTS: ports(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
  WEBHOOK_SOURCE_CIDRS: cidrs(),
  WEBHOOK_RETRY_DELAYS_MS: pattern(
    '2000,30000,60000,300000,600000,900000,1800000,3600000,43200000',
    /^\s*\d+\s*(,\s*\d+\s*)*$/,
    'must be a comma-separated list of milliseconds',
  ),
  WEBHOOK_DISABLE_AFTER_MS: int(5 * DAY, 0),
  WEBHOOK_TIME_SCALE: decimal(1, 0, 1000),
  WEBHOOK_SWEEP_INTERVAL_MS: int(5000, 50),
  WEBHOOK_SWEEP_GRACE_MS: int(30_000, 0),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(3000, 100, 10_000),
  WEBHOOK_HEADERS_TIMEOUT_MS: int(5000, 100, 10_000),
  /** A whole attempt; ≤ 10 s: a claimed delivery's lease (15 s) must outlast it and its record. */
  WEBHOOK_TIMEOUT_MS: int(10_000, 100, 10_000),
  WEBHOOK_TARGET_IN_FLIGHT: int(50, 1, 1000),
  WEBHOOK_SLOW_TARGET_IN_FLIGHT: int(2, 1, 1000),
  WEBHOOK_ACCOUNT_IN_FLIGHT: int(50, 1, 1000),
  SMTP_HOST: text('127.0.0.1'),
  SMTP_PORT: int(1025, 1, 65535),
  SMTP_SECURE: bool(false),
  SMTP_REQUIRE_TLS: bool(false),
  SMTP_USER: text(''),
  SMTP_PASSWORD: text(''),
  MAIL_FROM: variable(
    'no-reply@localhost',
    IsEmail({ require_tld: false }, { message: 'MAIL_FROM must be an e-mail address' }),
  ),
  SMS_DRIVER: oneOf(['log', 'http'], 'log'),
  SMS_API_URL: url(),
  SMS_ACCOUNT_SID: text(''),
  SMS_AUTH_TOKEN: text(''),
  SMS_FROM: text(''),
  NOTIFICATION_RETRY_ATTEMPTS: int(5, 1, 20),
  NOTIFICATION_RETRY_DELAY_MS: int(30_000, 1),
  RATE_LIMIT_ENABLED: bool(true),
  RATE_LIMIT_PER_SECOND: int(10, 1),
  RATE_LIMIT_CONCURRENT: int(20, 1),
  RATE_LIMIT_SLOT_TTL_MS: int(60_000, 1000),
  TRUST_PROXY: trustProxy('false'),
  CALENDAR_SYNC_ALLOWED_PORTS: ports(),
  CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES: bool(false),
  CALENDAR_SYNC_SCAN_INTERVAL_MS: int(30_000, 100),
  CALENDAR_SYNC_TIMEOUT_MS: int(30_000, 100),
  CALENDAR_SYNC_MAX_BYTES: int(10 * 1024 * 1024, 1024),
  /** Most events (VEVENTs: a series and each of its overrides count one) a source may hold. */
  CALENDAR_SYNC_MAX_EVENTS: int(20_000, 1),
  CALENDAR_SYNC_MAX_OCCURRENCES: int(50_000, 1),
  SHUTDOWN_TIMEOUT_MS: int(25_000, 1000),
};

type Values = { [K in keyof typeof VARIABLES]: (typeof VARIABLES)[K]['value'] };

/**
 * The schema parseEnvironment validates the variables as: a new one holds each variable's default.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the fields are the table's
export interface Environment extends Values {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- as above
export class Environment {
  constructor() {
    for (const [name, { value }] of Object.entries(VARIABLES))
      Object.assign(this, { [name]: value });
  }
}
for (const [name, { check }] of Object.entries(VARIABLES)) check(Environment.prototype, name);
