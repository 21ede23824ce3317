import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';

/**
 * The worker's `/metrics`, beside its health on WORKER_PORT (a port operators and Prometheus reach,
 * never tenants: the worker serves no public API).
 */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.metrics.scrape();
    void reply.type(contentType);
    return body;
  }
}
