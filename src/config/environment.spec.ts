import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from './app-config';
import { Environment } from './environment';
import { ConfigError, parseEnvironment } from './parse-environment';

describe('configuration', () => {
  it('has defaults that work on a developer machine', () => {
    const config = AppConfig.fromEnvironment({});
    expect(config.env).toBe('development');
    expect(config.http).toEqual({
      host: '0.0.0.0',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      metricsPort: 9464,
      drainMs: 0,
      trustProxy: false,
    });
    expect(config.db).toEqual({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      name: 'scheduling',
      poolSize: 10,
      migrateOnStart: true,
      cluster: { nodes: [], checkIntervalMs: 1000 },
      replicas: {
        nodes: [],
        user: 'root',
        password: '',
        maxLagSeconds: 2,
        checkIntervalMs: 1000,
        readYourWritesMs: 5000,
      },
    });
    expect(config.redis).toEqual({
      host: '127.0.0.1',
      port: 6379,
      password: undefined,
      db: 0,
      clusterNodes: [],
    });
    expect(config.queue.prefix).toBe('scheduling');
    expect(config.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads every variable, converting numbers and booleans', () => {
    const config = AppConfig.fromEnvironment({
      PORT: '8080',
      PUBLIC_URL: 'https://booking.example.com/',
      DB_PASSWORD: 's3cret',
      DB_MIGRATE_ON_START: 'false',
      REDIS_PASSWORD: 'r3dis',
      AUTH_CACHE_TTL_MS: '0',
      APP_SECRET: 'x'.repeat(40),
    });
    expect(config.http.port).toBe(8080);
    expect(config.http.publicUrl).toBe('https://booking.example.com');
    expect(config.db.password).toBe('s3cret');
    expect(config.db.migrateOnStart).toBe(false);
    expect(config.redis.password).toBe('r3dis');
    expect(config.auth.cacheTtlMs).toBe(0);
    expect(config.secret).toBe('x'.repeat(40));
  });

  it('reads the replicas and the Redis Cluster nodes (issue 27)', () => {
    const config = AppConfig.fromEnvironment({
      DB_PASSWORD: 'primary',
      DB_REPLICAS: ' 10.0.0.2:3306, replica-1.db.internal:3307,[fd00::5]:3306 ',
      DB_REPLICA_MAX_LAG_S: '1',
      DB_READ_YOUR_WRITES_MS: '3000',
      REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1:6380',
    });
    expect(config.db.replicas).toEqual({
      nodes: [
        { host: '10.0.0.2', port: 3306 },
        { host: 'replica-1.db.internal', port: 3307 },
        { host: 'fd00::5', port: 3306 },
      ],
      user: 'root',
      password: 'primary',
      maxLagSeconds: 1,
      checkIntervalMs: 1000,
      readYourWritesMs: 3000,
    });
    expect(config.redis.clusterNodes).toEqual([
      { host: 'redis-0', port: 6379 },
      { host: 'redis-1', port: 6380 },
    ]);
    const own = AppConfig.fromEnvironment({
      DB_PASSWORD: 'primary',
      DB_REPLICAS: 'r:3306',
      DB_REPLICA_USER: 'reader',
      DB_REPLICA_PASSWORD: 'r3ad',
    });
    expect(own.db.replicas).toMatchObject({ user: 'reader', password: 'r3ad' });
  });

  it.each([
    ['DB_REPLICAS', 'replica'],
    ['DB_REPLICAS', 'replica:0'],
    ['DB_REPLICAS', 'replica:70000'],
    ['DB_REPLICAS', 'a:1;b:2'],
    ['REDIS_CLUSTER_NODES', 'redis-0:6379,'.repeat(2) + 'x'],
    ['REDIS_CLUSTER_NODES', 'http://redis:6379'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => parseEnvironment({ [key]: value })).toThrow(
      new ConfigError(
        `Invalid configuration:\n  ${key}: ${key} must be a comma-separated list of host:port (got ${JSON.stringify(value)})`,
      ),
    );
  });

  it('refuses a read-your-writes window a lagging replica could outlast', () => {
    expect(() =>
      parseEnvironment({
        DB_REPLICAS: 'r:3306',
        DB_REPLICA_MAX_LAG_S: '5',
        DB_READ_YOUR_WRITES_MS: '5500',
      }),
    ).toThrow(
      new ConfigError(
        'Invalid configuration:\n  DB_READ_YOUR_WRITES_MS: must exceed DB_REPLICA_MAX_LAG_S × 1000 + DB_REPLICA_CHECK_INTERVAL_MS (6000) when DB_REPLICAS is set (got 5500)',
      ),
    );
  });

  it('has the outbox and webhook delivery settings: the contract ladder, scaled together with the window', () => {
    const defaults = AppConfig.fromEnvironment({});
    expect(defaults.outbox).toEqual({
      relayIntervalMs: 1000,
      relayDelayMs: 5000,
      redeliverAfterMs: 60_000,
    });
    expect(defaults.webhooks).toEqual({
      extraPorts: [],
      allowPrivateTargets: false,
      retryDelaysMs: [
        2000, 30_000, 60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 43_200_000,
      ],
      disableAfterMs: 5 * 24 * 60 * 60 * 1000,
      sweepIntervalMs: 5000,
      sweepGraceMs: 30_000,
      timeouts: { connectMs: 3000, headersMs: 5000, totalMs: 10_000 },
      inFlight: { perTarget: 50, perSlowTarget: 2, perAccount: 50 },
      sourceCidrs: [],
    });
    const scaled = AppConfig.fromEnvironment({
      WEBHOOK_TIME_SCALE: '0.001',
      OUTBOX_REDELIVER_AFTER_MS: '2000',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      WEBHOOK_SWEEP_GRACE_MS: '1000',
    });
    expect(scaled.webhooks.retryDelaysMs).toEqual([2, 30, 60, 300, 600, 900, 1800, 3600, 43_200]);
    expect(scaled.webhooks.disableAfterMs).toBe(432_000);
    // The sweeper's timing is about lost jobs, not the contract: not scaled.
    expect([scaled.webhooks.sweepIntervalMs, scaled.webhooks.sweepGraceMs]).toEqual([500, 1000]);
    expect(scaled.outbox.redeliverAfterMs).toBe(2000);
  });

  it('has the webhook timeouts and in-flight limits, each phase within the whole attempt', () => {
    const set = AppConfig.fromEnvironment({
      WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
      WEBHOOK_HEADERS_TIMEOUT_MS: '2000',
      WEBHOOK_TIMEOUT_MS: '4000',
      WEBHOOK_TARGET_IN_FLIGHT: '10',
      WEBHOOK_SLOW_TARGET_IN_FLIGHT: '1',
      WEBHOOK_ACCOUNT_IN_FLIGHT: '20',
    }).webhooks;
    expect([set.timeouts, set.inFlight]).toEqual([
      { connectMs: 1000, headersMs: 2000, totalMs: 4000 },
      { perTarget: 10, perSlowTarget: 1, perAccount: 20 },
    ]);
    expect(() =>
      parseEnvironment({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_TARGET_IN_FLIGHT: '1' }),
    ).toThrow(
      new ConfigError(
        'Invalid configuration:\n' +
          '  WEBHOOK_CONNECT_TIMEOUT_MS: must not exceed WEBHOOK_TIMEOUT_MS (got 3000 > 2000)\n' +
          '  WEBHOOK_HEADERS_TIMEOUT_MS: must not exceed WEBHOOK_TIMEOUT_MS (got 5000 > 2000)\n' +
          '  WEBHOOK_SLOW_TARGET_IN_FLIGHT: must not exceed WEBHOOK_TARGET_IN_FLIGHT (got 2 > 1)',
      ),
    );
  });

  it('has the notification settings: a local SMTP sink and the log SMS driver by default', () => {
    expect(AppConfig.fromEnvironment({}).notifications).toEqual({
      mail: {
        host: '127.0.0.1',
        port: 1025,
        secure: false,
        requireTls: false,
        auth: undefined,
        from: 'no-reply@localhost',
      },
      sms: { driver: 'log' },
      retryAttempts: 5,
      retryDelayMs: 30_000,
    });
    const configured = AppConfig.fromEnvironment({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '587',
      SMTP_REQUIRE_TLS: 'true',
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'pw',
      MAIL_FROM: 'bookings@example.com',
      SMS_DRIVER: 'http',
      SMS_API_URL: 'https://sms.example.com/2010-04-01/',
      SMS_ACCOUNT_SID: 'AC123',
      SMS_AUTH_TOKEN: 'token',
      SMS_FROM: '+15550000',
      NOTIFICATION_RETRY_ATTEMPTS: '3',
      NOTIFICATION_RETRY_DELAY_MS: '50',
    }).notifications;
    expect(configured).toEqual({
      mail: {
        host: 'smtp.example.com',
        port: 587,
        secure: false,
        requireTls: true,
        auth: { user: 'mailer', password: 'pw' },
        from: 'bookings@example.com',
      },
      sms: {
        driver: 'http',
        apiUrl: 'https://sms.example.com/2010-04-01',
        accountSid: 'AC123',
        authToken: 'token',
        from: '+15550000',
      },
      retryAttempts: 3,
      retryDelayMs: 50,
    });
  });

  it('has the operations settings: metrics port, drain, and a dashboard off unless given a strong password', () => {
    const defaults = AppConfig.fromEnvironment({});
    expect(defaults.worker).toEqual({ port: 3001, dashboard: { enabled: false } });
    const set = AppConfig.fromEnvironment({
      METRICS_PORT: '0',
      SHUTDOWN_DRAIN_MS: '10000',
      BULL_BOARD_ENABLED: 'true',
      OPERATOR_USER: 'ops',
      OPERATOR_PASSWORD: 'p'.repeat(16),
    });
    expect(set.http).toMatchObject({ metricsPort: 0, drainMs: 10_000 });
    expect(set.worker.dashboard).toEqual({ enabled: true, user: 'ops', password: 'p'.repeat(16) });
    expect(() => AppConfig.fromEnvironment({ BULL_BOARD_ENABLED: 'true' })).toThrow(
      new ConfigError(
        'Invalid configuration:\n  OPERATOR_PASSWORD: must be at least 16 characters when BULL_BOARD_ENABLED=true',
      ),
    );
    expect(() =>
      AppConfig.fromEnvironment({ BULL_BOARD_ENABLED: 'true', OPERATOR_PASSWORD: 'short' }),
    ).toThrow('OPERATOR_PASSWORD: must be at least 16 characters');
    expect(() => AppConfig.fromEnvironment({ OPERATOR_USER: 'a:b' })).toThrow(
      'OPERATOR_USER: OPERATOR_USER must be 1-64 characters without ":" or spaces (got "a:b")',
    );
  });

  it("has the contract's request limits by default, switchable off", () => {
    expect(AppConfig.fromEnvironment({}).limits).toEqual({
      enabled: true,
      perSecond: 10,
      concurrent: 20,
      slotTtlMs: 60_000,
    });
    expect(
      AppConfig.fromEnvironment({
        RATE_LIMIT_ENABLED: 'false',
        RATE_LIMIT_PER_SECOND: '100',
        RATE_LIMIT_CONCURRENT: '5',
        RATE_LIMIT_SLOT_TTL_MS: '5000',
      }).limits,
    ).toEqual({ enabled: false, perSecond: 100, concurrent: 5, slotTtlMs: 5000 });
  });

  it.each([
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    [' 10.0.0.0/8 , loopback,2001:db8::/32 ', '10.0.0.0/8,loopback,2001:db8::/32'],
  ])('reads TRUST_PROXY=%j as %j', (value, expected) => {
    expect(AppConfig.fromEnvironment({ TRUST_PROXY: value }).http.trustProxy).toEqual(expected);
  });

  it("reads the webhooks' source addresses as CIDRs, an address as its /32 or /128", () => {
    expect(
      AppConfig.fromEnvironment({
        WEBHOOK_SOURCE_CIDRS: ' 192.0.2.0/24, 198.51.100.7 ,2001:db8::/32,2001:db8::1',
      }).webhooks.sourceCidrs,
    ).toEqual(['192.0.2.0/24', '198.51.100.7/32', '2001:db8::/32', '2001:db8::1/128']);
  });

  it('needs the SMS API settings with the http driver, naming each missing one', () => {
    expect(() => parseEnvironment({ SMS_DRIVER: 'http', SMS_ACCOUNT_SID: 'AC1' })).toThrow(
      'Invalid configuration:\n  SMS_API_URL: must be set when SMS_DRIVER=http\n  SMS_AUTH_TOKEN: must be set when SMS_DRIVER=http\n  SMS_FROM: must be set when SMS_DRIVER=http',
    );
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DB_PORT: '-1' }, 'DB_PORT'],
    [{ DB_NAME: 'bad-name; DROP' }, 'DB_NAME'],
    [{ DB_MIGRATE_ON_START: 'maybe' }, 'DB_MIGRATE_ON_START'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
    [{ NODE_ENV: 'production' }, 'APP_SECRET'],
    [{ OUTBOX_REDELIVER_AFTER_MS: '10' }, 'OUTBOX_REDELIVER_AFTER_MS'],
    [{ WEBHOOK_SWEEP_INTERVAL_MS: 'often' }, 'WEBHOOK_SWEEP_INTERVAL_MS'],
    [{ WEBHOOK_SWEEP_GRACE_MS: '-1' }, 'WEBHOOK_SWEEP_GRACE_MS'],
    [{ WEBHOOK_CONNECT_TIMEOUT_MS: '50' }, 'WEBHOOK_CONNECT_TIMEOUT_MS'],
    [{ WEBHOOK_HEADERS_TIMEOUT_MS: 'soon' }, 'WEBHOOK_HEADERS_TIMEOUT_MS'],
    // A claim's lease (15 s) must outlast the attempt.
    [{ WEBHOOK_TIMEOUT_MS: '30000' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_TARGET_IN_FLIGHT: '0' }, 'WEBHOOK_TARGET_IN_FLIGHT'],
    [{ WEBHOOK_SLOW_TARGET_IN_FLIGHT: 'none' }, 'WEBHOOK_SLOW_TARGET_IN_FLIGHT'],
    [{ WEBHOOK_ACCOUNT_IN_FLIGHT: '-5' }, 'WEBHOOK_ACCOUNT_IN_FLIGHT'],
    [{ SMTP_PORT: '0' }, 'SMTP_PORT'],
    [{ SMTP_SECURE: 'maybe' }, 'SMTP_SECURE'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM'],
    [{ SMS_DRIVER: 'carrier-pigeon' }, 'SMS_DRIVER'],
    [{ SMS_API_URL: 'ftp://sms.example.com' }, 'SMS_API_URL'],
    [{ NOTIFICATION_RETRY_ATTEMPTS: '0' }, 'NOTIFICATION_RETRY_ATTEMPTS'],
    [{ NOTIFICATION_RETRY_DELAY_MS: 'soon' }, 'NOTIFICATION_RETRY_DELAY_MS'],
    [{ RATE_LIMIT_ENABLED: 'sometimes' }, 'RATE_LIMIT_ENABLED'],
    [{ RATE_LIMIT_PER_SECOND: '0' }, 'RATE_LIMIT_PER_SECOND'],
    [{ RATE_LIMIT_CONCURRENT: 'many' }, 'RATE_LIMIT_CONCURRENT'],
    [{ RATE_LIMIT_SLOT_TTL_MS: '10' }, 'RATE_LIMIT_SLOT_TTL_MS'],
    // Trusting every hop would let any client name its own address.
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,proxy.example' }, 'TRUST_PROXY'],
    [{ WEBHOOK_SOURCE_CIDRS: '192.0.2.0/33' }, 'WEBHOOK_SOURCE_CIDRS'],
    [{ WEBHOOK_SOURCE_CIDRS: '192.0.2.1,,192.0.2.2' }, 'WEBHOOK_SOURCE_CIDRS'],
    [{ WEBHOOK_SOURCE_CIDRS: 'hooks.example' }, 'WEBHOOK_SOURCE_CIDRS'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => parseEnvironment(env)).toThrow(ConfigError);
    expect(() => parseEnvironment(env)).toThrow(
      new RegExp(`^Invalid configuration:\\n  ${name}: `),
    );
  });

  it('never prints a secret it refuses', () => {
    expect(() => parseEnvironment({ APP_SECRET: 'hunter2' })).toThrow(
      'APP_SECRET: APP_SECRET must be at least 32 characters long (got 7 characters)',
    );
  });

  it('names every bad variable at once, with the value it got', () => {
    expect(() => parseEnvironment({ PORT: 'abc', REDIS_PORT: 'x' })).toThrow(
      /PORT: .*\(got "abc"\)\n {2}REDIS_PORT: .*\(got "x"\)/,
    );
  });

  it('documents every variable in .env.example and in docs/configuration.md', () => {
    const root = join(__dirname, '..', '..');
    const variables = [...Object.keys(new Environment()), 'PUBLIC_URL', 'APP_SECRET'];
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    expect(variables.filter((v) => !new RegExp(`^${v}=`, 'm').test(example))).toEqual([]);
    expect(variables.filter((v) => !readme.includes(`\`${v}\``))).toEqual([]);
  });
});
