import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { createRedisConnection, type RedisConnection } from './redis-connections';

/**
 * Bull's connections to a Redis Cluster, disconnected here at the end of the shutdown: Bull
 * disconnects only those it made itself, not a `createClient`'s.
 */
@Injectable()
export class ClusterConnections implements OnApplicationShutdown {
  private readonly open_ = new Set<RedisConnection>();

  open(config: AppConfig, type: 'client' | 'subscriber' | 'bclient'): RedisConnection {
    // Bull's blocking and subscriber connections must wait for ever and skip the ready check.
    const connection = createRedisConnection(
      config.redis,
      type === 'client' ? {} : { maxRetriesPerRequest: null, enableReadyCheck: false },
    );
    this.open_.add(connection);
    connection.once('end', () => this.open_.delete(connection));
    return connection;
  }

  onApplicationShutdown(): void {
    for (const connection of this.open_) connection.disconnect();
    this.open_.clear();
  }
}
