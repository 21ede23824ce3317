import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { DAY } from '../common/time/durations';
import {
  BooleanVariable,
  IntVariable,
  IsCidrList,
  IsHostPortList,
  IsTrustProxy,
  toDecimal,
} from './environment-values';

/**
 * Every environment variable the service reads, with the defaults that work on a developer machine
 * (local MySQL as root without password, local Redis). Documented in `.env.example` and docs/configuration.md.
 */
export class Environment {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @IsString()
  HOST = '0.0.0.0';

  /** 0: a free port the system picks, logged (and told to a parent process: the tests). */
  @IntVariable(0, 65535)
  PORT = 3000;

  /** Base URL clients reach the service at; used to build links (confirmation pages, OAuth). */
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PUBLIC_URL?: string;

  @IsString()
  DB_HOST = '127.0.0.1';

  @IntVariable(1, 65535)
  DB_PORT = 3306;

  @IsString()
  DB_USER = 'root';

  @IsString()
  DB_PASSWORD = '';

  @Matches(/^[A-Za-z0-9_]{1,64}$/, { message: 'DB_NAME must be letters, digits and _ only' })
  DB_NAME = 'scheduling';

  @IntVariable(1, 500)
  DB_POOL_SIZE = 10;

  /** Create the database if missing and run pending migrations at start. Off in production pods. */
  @BooleanVariable()
  DB_MIGRATE_ON_START = true;

  /**
   * Read replicas of the primary, `host:port,…`; empty = none. Only reads that inform go
   * to them (see docs/scaling.md); they are skipped while lagging or down.
   */
  @IsHostPortList()
  DB_REPLICAS = '';

  /** The replicas' user and password; empty = the primary's. */
  @IsString()
  DB_REPLICA_USER = '';

  @IsString()
  DB_REPLICA_PASSWORD = '';

  /** A replica more than this many seconds behind the primary (or not replicating) is skipped. */
  @IntVariable(0, 3600)
  DB_REPLICA_MAX_LAG_S = 2;

  /** How often each API process checks each replica's replication state and lag. */
  @IntVariable(100, 60_000)
  DB_REPLICA_CHECK_INTERVAL_MS = 1000;

  /**
   * Read-your-writes: after an account's write, its reads go to the primary this long. Must exceed
   * the lag bound plus a check interval (checked at start), so that a replica still serving then has
   * the write.
   */
  @IntVariable(0, 600_000)
  DB_READ_YOUR_WRITES_MS = 5000;

  /**
   * Redis Cluster: `host:port,…` of some of its nodes; empty = the single Redis of
   * REDIS_HOST and REDIS_PORT. Every Redis use (queues, limits) then runs on the cluster.
   */
  @IsHostPortList()
  REDIS_CLUSTER_NODES = '';

  @IsString()
  REDIS_HOST = '127.0.0.1';

  @IntVariable(1, 65535)
  REDIS_PORT = 6379;

  @IsString()
  REDIS_PASSWORD = '';

  @IntVariable(0, 15)
  REDIS_DB = 0;

  /** Prefix of every Bull key in Redis; lets several deployments (or test runs) share one Redis. */
  @Matches(/^[A-Za-z0-9_:.-]{1,64}$/, {
    message: 'QUEUE_PREFIX must be 1-64 of A-Z a-z 0-9 _ : . -',
  })
  QUEUE_PREFIX = 'scheduling';

  /** Server secret: encrypts API keys at rest and keys the hashes of secrets. Required in production. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'APP_SECRET must be at least 32 characters long' })
  APP_SECRET?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /**
   * How long an API pod caches a proven account, enterprise or OAuth token. A change announced on
   * Redis (AuthRevocations) ends it at once on every pod; one missed ends it within this time.
   */
  @IntVariable(0, 300_000)
  AUTH_CACHE_TTL_MS = 15_000;

  /**
   * How long an API process keeps an `/availability/times` answer or a confirmation page's
   * appointment, checked against its account's write epoch in Redis on every request (see
   * AvailabilityAnswers, KeptConfirmations); 0 = no cache.
   */
  @IntVariable(0, 600_000)
  AVAILABILITY_CACHE_TTL_MS = 60_000;

  /** Port of the worker's health endpoints (the worker serves nothing else over HTTP); 0 as PORT. */
  @IntVariable(0, 65535)
  WORKER_PORT = 3001;

  /**
   * Port of the API's Prometheus `/metrics` (kept off the public API's port); 0 = none. The worker
   * serves its `/metrics` on WORKER_PORT.
   */
  @IntVariable(0, 65535)
  METRICS_PORT = 9464;

  /** The queue dashboard (Bull Board) at `/queues` on the worker's port, for operators. Off by default. */
  @BooleanVariable()
  BULL_BOARD_ENABLED = false;

  /** The operator's Basic auth user for the queue dashboard. */
  @Matches(/^[^:\s]{1,64}$/, {
    message: 'OPERATOR_USER must be 1-64 characters without ":" or spaces',
  })
  OPERATOR_USER = 'operator';

  /** The operator's password for the queue dashboard; required (16+ characters) when it is enabled. */
  @IsString()
  OPERATOR_PASSWORD = '';

  /**
   * On SIGTERM the API first answers `/health/ready` with 503 and keeps serving this long (with
   * `Connection: close`, so that clients reconnect elsewhere) while load balancers take the pod out;
   * then it closes its listener and finishes what is in flight. 0 = close at once (a developer
   * machine). Kubernetes: longer than the readiness probe's period × failure threshold.
   */
  @IntVariable(0, 300_000)
  SHUTDOWN_DRAIN_MS = 0;

  @IntVariable(50)
  OUTBOX_RELAY_INTERVAL_MS = 1000;

  /** Rows younger than this are left to the process that wrote them (it dispatches after commit). */
  @IntVariable(0)
  OUTBOX_RELAY_DELAY_MS = 5000;

  /**
   * An event handed to the queue but still not processed this long after has its job looked up: a
   * job Redis lost, whole or in part (its hash, or its place in the queue's lists), is handed over
   * again, one failed for good retried; one still queued or running is left (see OutboxRelay).
   */
  @IntVariable(100)
  OUTBOX_REDELIVER_AFTER_MS = 60_000;

  /**
   * Webhook targets must use port 443 or 80; extra ports allowed here, comma-separated (e.g. for an
   * internal receiver on 8443), or `*` for any port. Empty by default.
   */
  @Matches(/^(\*|(\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*)?)$/, {
    message: 'WEBHOOK_ALLOWED_PORTS must be a comma-separated list of ports, or *',
  })
  WEBHOOK_ALLOWED_PORTS = '';

  /** Whether webhook targets may be loopback, private or otherwise non-public addresses. */
  @BooleanVariable()
  WEBHOOK_ALLOW_PRIVATE_TARGETS = false;

  /**
   * The addresses webhooks leave from (the workers' egress: a NAT gateway's address, say), as
   * comma-separated IPv4/IPv6 addresses or CIDRs: `GET /meta` tells receivers (its `hooks`), so
   * that they can allow them through a firewall. Empty by default (nothing is announced).
   */
  @IsCidrList()
  WEBHOOK_SOURCE_CIDRS = '';

  /** The retry ladder of a failed delivery, comma-separated milliseconds (the contract's by default). */
  @Matches(/^\s*\d+\s*(,\s*\d+\s*)*$/, {
    message: 'WEBHOOK_RETRY_DELAYS_MS must be a comma-separated list of milliseconds',
  })
  WEBHOOK_RETRY_DELAYS_MS = '2000,30000,60000,300000,600000,900000,1800000,3600000,43200000';

  /** How long failures must continue before a subscription is disabled (5 days by default). */
  @IntVariable(0)
  WEBHOOK_DISABLE_AFTER_MS = 5 * DAY;

  /**
   * Multiplies the retry ladder and the disable window (tests run them scaled down, e.g. 0.001).
   * 1 in production.
   */
  @Transform(toDecimal)
  @IsNumber()
  @Min(0)
  @Max(1000)
  WEBHOOK_TIME_SCALE = 1;

  /** How often the worker looks for webhook deliveries whose queue job was lost. */
  @IntVariable(50)
  WEBHOOK_SWEEP_INTERVAL_MS = 5000;

  /**
   * How long past its due time a pending delivery must be before the sweeper queues it again (its
   * own job normally runs well within this; not multiplied by WEBHOOK_TIME_SCALE).
   */
  @IntVariable(0)
  WEBHOOK_SWEEP_GRACE_MS = 30_000;

  /**
   * Longest a webhook attempt may take to resolve the receiver's name and to open its connection
   * (TCP, and TLS for https), each. A receiver that cannot be reached is given up on early.
   */
  @IntVariable(100, 10_000)
  WEBHOOK_CONNECT_TIMEOUT_MS = 3000;

  /** Longest a webhook attempt waits, once its request is sent, for the response's headers. */
  @IntVariable(100, 10_000)
  WEBHOOK_HEADERS_TIMEOUT_MS = 5000;

  /**
   * Longest a whole webhook attempt may take, name resolution to the end of the response read.
   * At most 10 s: a claimed delivery's lease (15 s) must outlast its attempt and its recording.
   */
  @IntVariable(100, 10_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /**
   * Deliveries in flight at once to one receiver origin (scheme, host, port), per worker process
   * (whose delivery slots are 100): one receiver never takes more than this share of a worker.
   */
  @IntVariable(1, 1000)
  WEBHOOK_TARGET_IN_FLIGHT = 50;

  /** Deliveries in flight at once to a receiver found slow (timing out), per worker process. */
  @IntVariable(1, 1000)
  WEBHOOK_SLOW_TARGET_IN_FLIGHT = 2;

  /** Deliveries of one account in flight at once, whatever their receivers, per worker process. */
  @IntVariable(1, 1000)
  WEBHOOK_ACCOUNT_IN_FLIGHT = 50;

  /** SMTP server the worker sends client e-mail through (a local sink such as Mailpit by default). */
  @IsString()
  SMTP_HOST = '127.0.0.1';

  @IntVariable(1, 65535)
  SMTP_PORT = 1025;

  /** TLS from the first byte (SMTPS, usually port 465); otherwise STARTTLS when the server offers it. */
  @BooleanVariable()
  SMTP_SECURE = false;

  /** With SMTP_SECURE=false: refuse to send unless the server upgrades the connection (STARTTLS). */
  @BooleanVariable()
  SMTP_REQUIRE_TLS = false;

  /** SMTP AUTH user; empty = no authentication. */
  @IsString()
  SMTP_USER = '';

  @IsString()
  SMTP_PASSWORD = '';

  /** Sender address of client e-mail (the display name is the account's name). */
  @IsEmail({ require_tld: false }, { message: 'MAIL_FROM must be an e-mail address' })
  MAIL_FROM = 'no-reply@localhost';

  /** `log` writes SMS to the worker's log (development); `http` sends them to SMS_API_URL. */
  @IsIn(['log', 'http'])
  SMS_DRIVER: 'log' | 'http' = 'log';

  /** Base URL of a Twilio-style REST API (`POST {url}/Accounts/{sid}/Messages.json`). */
  @ValidateIf((e: Environment) => e.SMS_API_URL !== '')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  SMS_API_URL = '';

  @IsString()
  SMS_ACCOUNT_SID = '';

  @IsString()
  SMS_AUTH_TOKEN = '';

  /** The number (or sender id) SMS are sent from. */
  @IsString()
  SMS_FROM = '';

  /** Attempts of one message (the first included) before it is recorded `failed`. */
  @IntVariable(1, 20)
  NOTIFICATION_RETRY_ATTEMPTS = 5;

  /**
   * Base of the exponential wait between attempts: retry n waits (2^n - 1) times this (30 s, 1.5 min,
   * 3.5 min, 7.5 min by default). Tests shorten it.
   */
  @IntVariable(1)
  NOTIFICATION_RETRY_DELAY_MS = 30_000;

  /** Per-IP limits of API requests (the contract's Limits); off in tests and benchmarks. */
  @BooleanVariable()
  RATE_LIMIT_ENABLED = true;

  /** Requests one client IP may make per second (a fixed one-second window, shared by the pods). */
  @IntVariable(1)
  RATE_LIMIT_PER_SECOND = 10;

  /** Requests of one client IP in flight at once, counted across the pods. */
  @IntVariable(1)
  RATE_LIMIT_CONCURRENT = 20;

  /**
   * Safety expiry of a pod's count of a client's requests in flight: it stops counting this long
   * after the pod last reported it (the pod died; or one of its requests ran this long while no
   * other request of the client came).
   */
  @IntVariable(1000)
  RATE_LIMIT_SLOT_TTL_MS = 60_000;

  /**
   * Which proxies in front of the API are trusted to name the client in `X-Forwarded-For`: `false`
   * (the client is the connection's peer), a hop count (`1`: one proxy, the peer, is trusted), or a
   * comma-separated list of addresses, CIDRs and proxy-addr's `loopback`, `linklocal`, `uniquelocal`.
   */
  @IsTrustProxy()
  TRUST_PROXY = 'false';

  /**
   * Calendar sync: the ports a busy source's URL may use besides 443 and 80,
   * comma-separated, or `*`; empty by default, as for webhooks.
   */
  @Matches(/^(\*|(\s*\d{1,5}\s*(,\s*\d{1,5}\s*)*)?)$/, {
    message: 'CALENDAR_SYNC_ALLOWED_PORTS must be a comma-separated list of ports, or *',
  })
  CALENDAR_SYNC_ALLOWED_PORTS = '';

  /** Whether busy sources may be loopback, private or otherwise non-public addresses. */
  @BooleanVariable()
  CALENDAR_SYNC_ALLOW_PRIVATE_SOURCES = false;

  /** How often the worker looks for sources due a sync (each account sets how often they are). */
  @IntVariable(100)
  CALENDAR_SYNC_SCAN_INTERVAL_MS = 30_000;

  /** Longest one source's sync may take (DNS, connection, every request and the body). */
  @IntVariable(100)
  CALENDAR_SYNC_TIMEOUT_MS = 30_000;

  /** Most bytes one sync reads from a source, all its answers together (decompressed). */
  @IntVariable(1024)
  CALENDAR_SYNC_MAX_BYTES = 10 * 1024 * 1024;

  /** Most events (VEVENTs: a series and each of its overrides count one) a source may hold. */
  @IntVariable(1)
  CALENDAR_SYNC_MAX_EVENTS = 20_000;

  /** Most busy occurrences a source may have in the window (each of a series' counts one). */
  @IntVariable(1)
  CALENDAR_SYNC_MAX_OCCURRENCES = 50_000;

  /** Longest a graceful shutdown waits for in-flight requests and jobs before the process exits. */
  @IntVariable(1000)
  SHUTDOWN_TIMEOUT_MS = 25_000;
}
