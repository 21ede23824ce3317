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

/** Where the dashboard is served on the worker's port. */
export const DASHBOARD_PATH = '/queues';

/**
 * The operators' queue dashboard (Bull Board) at /queues on the worker's port, when
 * BULL_BOARD_ENABLED: every queue's jobs by state, their data and errors, and the actions (retry,
 * promote, clean). Actions are safe: every job is idempotent and MySQL holds the truth (a webhook
 * job retried or removed is claimed, or revived by the sweeper, from its row). Every request under
 * the path needs the operator's Basic credentials, checked in an onRequest hook of the dashboard's
 * own Fastify scope (the worker's health and metrics are not behind it). The worker serves it, not
 * the API: operators, not tenants, reach that port.
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
