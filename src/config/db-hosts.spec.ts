import { AppConfig } from './app-config';
import { ConfigError, parseEnvironment } from './parse-environment';

/** DB_HOSTS: a multi-primary cluster's nodes; unset, the one DB_HOST:DB_PORT. */
describe('configuration: DB_HOSTS', () => {
  it('reads a cluster’s nodes in the order given; the first is the one server', () => {
    const config = AppConfig.fromEnvironment({
      DB_HOSTS: ' galera-2.db:3306,galera-0.db:3306 , [fd00::7]:3307',
      DB_NODE_CHECK_INTERVAL_MS: '500',
      DB_USER: 'app',
    });
    expect(config.db).toMatchObject({
      host: 'galera-2.db',
      port: 3306,
      user: 'app',
      cluster: {
        nodes: [
          { host: 'galera-2.db', port: 3306 },
          { host: 'galera-0.db', port: 3306 },
          { host: 'fd00::7', port: 3307 },
        ],
        checkIntervalMs: 500,
      },
    });
  });

  it('refuses DB_HOSTS beside DB_HOST or DB_PORT, and a node listed twice', () => {
    expect(() =>
      parseEnvironment({ DB_HOSTS: 'a:3306,b:3306', DB_HOST: 'a', DB_PORT: '3306' }),
    ).toThrow(
      new ConfigError(
        'Invalid configuration:\n  DB_HOST: must not be set with DB_HOSTS (DB_HOSTS lists every node)\n  DB_PORT: must not be set with DB_HOSTS (DB_HOSTS lists every node)',
      ),
    );
    expect(() => parseEnvironment({ DB_HOSTS: 'a:3306,b:3306, a:3306' })).toThrow(
      new ConfigError('Invalid configuration:\n  DB_HOSTS: lists a:3306 twice'),
    );
    expect(() => parseEnvironment({ DB_NODE_CHECK_INTERVAL_MS: '50' })).toThrow(
      /DB_NODE_CHECK_INTERVAL_MS: DB_NODE_CHECK_INTERVAL_MS must not be less than 100/,
    );
  });

  it.each(['galera-0', 'galera-0:3306;galera-1:3306', 'mysql://galera-0:3306', 'g:0'])(
    'refuses DB_HOSTS=%j',
    (value) => {
      expect(() => parseEnvironment({ DB_HOSTS: value })).toThrow(
        new ConfigError(
          `Invalid configuration:\n  DB_HOSTS: DB_HOSTS must be a comma-separated list of host:port (got ${JSON.stringify(value)})`,
        ),
      );
    },
  );

  it('leaves the one server as it was when unset', () => {
    const config = AppConfig.fromEnvironment({ DB_HOST: 'db.internal', DB_PORT: '3307' });
    expect(config.db).toMatchObject({
      host: 'db.internal',
      port: 3307,
      cluster: { nodes: [], checkIntervalMs: 1000 },
    });
  });
});
