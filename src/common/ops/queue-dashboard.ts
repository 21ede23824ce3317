import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { getQueueToken } from '@nestjs/bull';
import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { QueueName } from '../queues/queue-names';
import { operatorAuthHook } from './operator-auth';

export const DASHBOARD_PATH = '/queues';

/**
 * The operators' queue dashboard (Bull Board) on the worker's port when BULL_BOARD_ENABLED. Its
 * actions are safe: every job is idempotent and MySQL holds the truth. Every request under the path
 * needs the operator's Basic credentials, checked in the dashboard's own Fastify scope.
 */
@Injectable()
export class QueueDashboard implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    const { dashboard } = this.config.worker;
    const http = this.adapterHost.httpAdapter;
    // No HTTP server: a worker module started without one (tests).
    if (!dashboard.enabled || !http) return;
    const board = new FastifyAdapter();
    createBullBoard({
      queues: Object.values(QueueName).map(
        (name) =>
          new BullAdapter(this.moduleRef.get<Queue>(getQueueToken(name), { strict: false })),
      ),
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'Scheduling queues' } },
    });
    board.setBasePath(DASHBOARD_PATH);
    const fastify = http.getInstance<FastifyInstance>();
    void fastify.register(async (scope) => {
      scope.addHook('onRequest', operatorAuthHook(dashboard));
      await scope.register(board.registerPlugin(), { prefix: DASHBOARD_PATH });
    });
  }
}

@Module({ providers: [QueueDashboard] })
export class QueueDashboardModule {}
