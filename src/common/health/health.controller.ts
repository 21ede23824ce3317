import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { DatabaseNodes } from '../database/database-nodes';
import { ReadReplicas } from '../database/read-replicas';
import { Public } from '../http/public.decorator';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

/**
 * Probes for orchestrators, without auth. `live`: the process answers. `ready`: MySQL and Redis
 * answer too and the process is not stopping (else 503 with the details); with read replicas,
 * `replicas` reports each one's state and where the reads go; with a cluster's nodes (DB_HOSTS),
 * `databaseNodes` reports each node's Galera state and the one this process writes through.
 */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly replicas: ReadReplicas,
    private readonly indicators: HealthIndicatorService,
    private readonly nodes: DatabaseNodes,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    if (this.shutdown.draining) {
      void reply.code(503);
      const down = { process: { status: 'down', message: 'shutting down' } };
      return { status: 'error', info: {}, error: down, details: down };
    }
    try {
      return await this.health.check([
        () => this.db.pingCheck('mysql', { timeout: 1000 }),
        () => this.redis.isHealthy('redis'),
        ...(this.replicas.configured ? [() => this.replicaStates()] : []),
        ...(this.nodes.configured ? [() => this.nodeStates()] : []),
      ]);
    } catch (e) {
      // Terminus throws a 503 carrying the report, which ops want.
      const report = (e as { getResponse?: () => unknown }).getResponse?.();
      if (!report) throw e;
      void reply.code(503);
      return report;
    }
  }

  /**
   * Each node's state (by its place in DB_HOSTS) and the current one: `down` while none is usable
   * (the process has nowhere to write), `up` while its current node is.
   */
  private nodeStates() {
    const { usable, ...report } = this.nodes.report();
    const indicator = this.indicators.check('databaseNodes');
    return usable ? indicator.up(report) : indicator.down(report);
  }

  /**
   * Each read replica's state. Always `up`: a replica skipped leaves its reads to the primary; were
   * it `down`, one lost replica would take every pod out of its load balancer at once.
   */
  private replicaStates() {
    const states = this.replicas.states();
    const serving = Object.values(states).filter((s) => s.status === 'serving').length;
    return this.indicators.check('replicas').up({
      serving,
      readsOn: serving > 0 ? 'replicas' : 'primary',
      replicas: states,
    });
  }
}
