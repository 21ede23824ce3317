import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { useReadCommitted } from '../common/database/read-committed';
import { Secrets } from '../common/crypto/secrets';
import { AccountEpochs } from '../common/database/account-epochs';
import { dataSourceOptions } from '../common/database/data-source-options';
import { DatabaseNodes } from '../common/database/database-nodes';
import { ReadReplicas } from '../common/database/read-replicas';
import { RecentWrites } from '../common/database/recent-writes';
import { UnitOfWork } from '../common/database/unit-of-work';
import { OutboxRepository } from '../common/outbox/outbox.repository';
import { migrate, prepareServer } from '../common/database/schema';
import { ClusterConnections } from '../common/queues/cluster-connections';
import { isCluster, queuePrefix } from '../common/queues/redis-connections';
import { LoggingModule } from '../common/logging/logging.module';
import { HealthModule } from '../common/health/health.module';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { configureLocks } from '../common/database/row-locks';

export interface CoreOptions {
  config: AppConfig;
  logger: Logger;
}

const SHARED = [Secrets, RecentWrites, ReadReplicas, AccountEpochs, OutboxRepository, UnitOfWork];

/**
 * What every process shares: configuration, logs, MySQL (created and migrated at start unless
 * switched off) and its read replicas, the accounts' write epochs, CQRS buses, the server's secrets.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot({ config, logger }: CoreOptions): DynamicModule {
    // Built before TypeORM: the database is opened on the node it finds usable (DB_HOSTS).
    const nodes = new DatabaseNodes(config.db, logger);
    // On a multi-primary cluster every lock is a write (docs/architecture.md, "Locks are writes").
    configureLocks({ written: config.db.cluster.nodes.length > 0 });
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(logger),
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            const db = await nodes.start();
            const type = await prepareServer(db, { createDatabase: config.db.migrateOnStart });
            return { ...dataSourceOptions(db, type, nodes), autoLoadEntities: true };
          },
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            nodes.watch(dataSource);
            await useReadCommitted(dataSource, config.db.poolSize, {
              causalReads: config.db.cluster.nodes.length > 0,
            });
            if (config.db.migrateOnStart) {
              const applied = await migrate(dataSource);
              if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
            }
            return dataSource;
          },
        }),
        CqrsModule.forRoot(),
      ],
      providers: [...SHARED, { provide: DatabaseNodes, useValue: nodes }],
      exports: [...SHARED, DatabaseNodes],
    };
  }
}

/**
 * Bull on Redis, for the processes that produce or consume jobs (not the CLI). On a Redis Cluster
 * the queues' connections are ioredis Clusters and their prefix a hash tag (see queuePrefix).
 */
@Module({})
class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    const prefix = queuePrefix(config);
    if (!isCluster(config.redis)) {
      const { host, port, password, db } = config.redis;
      return {
        module: QueueModule,
        imports: [BullModule.forRoot({ redis: { host, port, password, db }, prefix })],
      };
    }
    const connections = new ClusterConnections();
    return {
      module: QueueModule,
      imports: [
        BullModule.forRoot({ prefix, createClient: (type) => connections.open(config, type) }),
      ],
      providers: [{ provide: ClusterConnections, useValue: connections }],
    };
  }
}

/** What the API and the worker start with: the core, Bull on Redis, the health endpoints. */
export function servingCore(options: CoreOptions) {
  return [CoreModule.forRoot(options), QueueModule.forRoot(options.config), HealthModule];
}
