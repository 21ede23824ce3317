import Redis from 'ioredis';
import pino from 'pino';
import { eventually } from '../../../test/support/eventually';
import { redisCluster } from '../../../test/support/redis-cluster';
import { freePort } from '../../../test/support/redis-server';
import { testConfig } from '../../../test/support/test-environment';
import {
  AuthRevocations,
  type RevocableCache,
  type Revocation,
  revocationChannel,
} from './auth-revocations';
import { RevocationFeed } from './revocation-feed';

/** A cache that writes down what it is told, in order. */
class RecordingCache implements RevocableCache {
  readonly told: (string | Revocation)[] = [];
  forget(revocation: Revocation): void {
    this.told.push(revocation);
  }
  suspend(): void {
    this.told.push('suspend');
  }
  resume(): void {
    this.told.push('resume');
  }
}

/**
 * The revocation channel on the real Redis: what one process announces, another's feed hears; a
 * feed whose connection is cut suspends its caches and resumes them (forgetting all) once
 * subscribed again. The processes are two AuthRevocations of this one (a process's own is what
 * the e2e suite, test/scale-out/auth-revocations.e2e-spec.ts, runs between real processes).
 */
describe('AuthRevocations and RevocationFeed (real Redis)', () => {
  const config = testConfig();
  const logger = pino({ level: 'silent' });
  const redis = new Redis({ host: config.redis.host, port: config.redis.port });
  const closing: { onApplicationShutdown(): void }[] = [];
  afterAll(() => {
    for (const each of closing) each.onApplicationShutdown();
    redis.disconnect();
  });

  async function listening(): Promise<{ cache: RecordingCache; feed: RevocationFeed }> {
    const revocations = new AuthRevocations(config, logger);
    const cache = new RecordingCache();
    revocations.register(cache);
    const feed = new RevocationFeed(revocations, config, logger);
    closing.push(feed);
    await feed.onApplicationBootstrap();
    return { cache, feed };
  }

  function announcer(of = config): AuthRevocations {
    const revocations = new AuthRevocations(of, logger);
    closing.push(revocations);
    return revocations;
  }

  it('suspends the caches until subscribed; then they hear what any process announces', async () => {
    const { cache } = await listening();
    expect(cache.told).toEqual(['suspend', 'resume']);

    await announcer().announce({ kind: 'account', id: 7 });
    await announcer().announce({ kind: 'token', id: 'f00d' });
    await eventually(() => (cache.told.length === 4 ? true : undefined), 2000);
    expect(cache.told.slice(2)).toEqual([
      { kind: 'account', id: 7 },
      { kind: 'token', id: 'f00d' },
    ]);
  });

  it('forgets everything on a message it cannot read', async () => {
    const { cache } = await listening();
    await redis.publish(revocationChannel(config), '{"kind":"session","id":1}');
    await eventually(() => (cache.told.length === 3 ? true : undefined), 2000);
    expect(cache.told).toEqual(['suspend', 'resume', 'resume']);
  });

  it('suspends the caches when its connection is cut, and resumes them once subscribed again', async () => {
    const { cache } = await listening();
    const name = `${revocationChannel(config)}:${process.pid}`;
    const listed = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    const ids = listed
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]);
    // This file's feeds (one per test so far, each subscribed): cut them all.
    for (const id of ids) await redis.call('CLIENT', 'KILL', 'ID', id);

    await eventually(() => (cache.told.length === 4 ? true : undefined), 5000);
    expect(cache.told).toEqual(['suspend', 'resume', 'suspend', 'resume']);
    await announcer().announce({ kind: 'enterprise', id: 2 });
    await eventually(() => (cache.told.length === 5 ? true : undefined), 2000);
    expect(cache.told[4]).toEqual({ kind: 'enterprise', id: 2 });
  });

  it('announcing without Redis forgets in this process and leaves the rest to the TTL, without failing', async () => {
    const unreachable = testConfig().with({
      redis: { ...config.redis, port: await freePort() },
    });
    const revocations = announcer(unreachable);
    const cache = new RecordingCache();
    revocations.register(cache);
    await expect(revocations.announce({ kind: 'account', id: 9 })).resolves.toBeUndefined();
    expect(cache.told).toEqual([{ kind: 'account', id: 9 }]);
  });
});

/**
 * On a real 3-node Redis Cluster (test/support/redis-cluster.ts): a PUBLISH on any node reaches the
 * feed's one connection, and a feed whose node connection is cut subscribes on the next node.
 */
describe('RevocationFeed on a Redis Cluster', () => {
  const logger = pino({ level: 'silent' });
  const closing: { onApplicationShutdown(): void }[] = [];
  afterAll(() => {
    for (const each of closing) each.onApplicationShutdown();
  });

  it('hears what is published on any node, and moves to the next node when cut', async () => {
    const { nodes } = await redisCluster();
    const base = testConfig();
    const config = base.with({ redis: { ...base.redis, clusterNodes: nodes } });
    const revocations = new AuthRevocations(config, logger);
    const cache = new RecordingCache();
    revocations.register(cache);
    const feed = new RevocationFeed(revocations, config, logger);
    closing.push(feed, revocations);
    await feed.onApplicationBootstrap();
    expect(cache.told).toEqual(['suspend', 'resume']);

    const clients = nodes.map(({ host, port }) => new Redis({ host, port }));
    try {
      const channel = revocationChannel(config);
      for (const [i, client] of clients.entries())
        await client.publish(channel, JSON.stringify({ kind: 'account', id: i }));
      // And as the service announces: through its cluster connection, whichever node that picks.
      await revocations.announce({ kind: 'enterprise', id: 1 });
      await eventually(() => (cache.told.length === 7 ? true : undefined), 2000);
      // Messages published on different nodes reach a subscriber in no set order (the cluster bus
      // carries them): what is heard is compared as a set.
      const heard = (told: RecordingCache['told']) => told.map((t) => JSON.stringify(t)).sort();
      expect(heard(cache.told.slice(2))).toEqual(
        heard([
          { kind: 'account', id: 0 },
          { kind: 'account', id: 1 },
          { kind: 'account', id: 2 },
          { kind: 'enterprise', id: 1 },
          { kind: 'enterprise', id: 1 }, // forgotten here at once, then heard
        ]),
      );

      const name = `${channel}:${process.pid}`;
      const holder = async (client: Redis) =>
        ((await client.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string)
          .split('\n')
          .filter((line) => line.includes(` name=${name} `))
          .map((line) => /\bid=(\d+)/.exec(line)![1]);
      const before = await Promise.all(clients.map(holder));
      expect(before.map((ids) => ids.length)).toEqual([1, 0, 0]);
      await clients[0].call('CLIENT', 'KILL', 'ID', before[0][0]);
      await eventually(() => (cache.told.length === 9 ? true : undefined), 5000);
      expect(cache.told.slice(7)).toEqual(['suspend', 'resume']);
      expect((await Promise.all(clients.map(holder))).map((ids) => ids.length)).toEqual([0, 1, 0]);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });
});
