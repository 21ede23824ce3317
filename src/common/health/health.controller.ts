import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/public.decorator';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

/**
 * Probes for orchestrators, outside /api/v1 and without auth. `live`: the process answers.
 * `ready`: MySQL and Redis answer too (503 with the details when one does not), and the process is
 * not stopping (503 from SIGTERM on: see ShutdownState).
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
      ]);
    } catch (e) {
      // Terminus throws a 503 carrying the report; keep the report (ops want the details).
      const report = (e as { getResponse?: () => unknown }).getResponse?.();
      if (!report) throw e;
      void reply.code(503);
      return report;
    }
  }
}
