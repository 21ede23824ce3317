import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { QueueName } from '../queues/queue-names';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis.health';
import { ShutdownState } from './shutdown-state';

@Module({
  imports: [
    TerminusModule.forRoot({ logger: false }),
    BullModule.registerQueue({ name: QueueName.DomainEvents }),
  ],
  controllers: [HealthController],
  providers: [RedisHealthIndicator, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
