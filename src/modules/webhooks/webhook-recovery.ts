import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { RepeatingPass } from '../../common/queues/repeating-pass';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliveryQueue } from './webhook-delivery-queue';
import { WebhookMessageRepository } from './webhook-message.repository';

const BATCH_SIZE = 500;

/**
 * The safety net of webhook delivery, as the outbox relay is for events: a pending message due for
 * longer than the grace lost its job (Redis restarted empty, the job gave up) or its worker died
 * mid-attempt. It gets a new job, `wh:<messageId>:<attempts>:<sweep time>`, an id no earlier job
 * has (Bull would ignore a duplicate). Attempts and ladder are the row's, so the revived job goes
 * on where the lost one stopped, and its claim keeps it from sending while another job is at it.
 */
@Injectable()
export class WebhookRecovery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: RepeatingPass;

  constructor(
    private readonly work: UnitOfWork,
    private readonly messages: WebhookMessageRepository,
    private readonly queue: WebhookDeliveryQueue,
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.passes = new RepeatingPass(() => this.sweepOnce(), {
      batchSize: BATCH_SIZE,
      intervalMs: config.webhooks.sweepIntervalMs,
      logger,
      tookRows: 'webhook sweeper re-queued lost deliveries',
      failed: 'webhook sweep failed; retrying',
    });
  }

  onApplicationBootstrap(): void {
    this.passes.start(this.config.webhooks.sweepIntervalMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.passes.stop();
  }

  /** Queues up to a batch of lost messages (jobs added before the rows are released); how many. */
  async sweepOnce(): Promise<number> {
    if (!this.queue.ready) return 0;
    const now = new Date();
    return this.work.run(null, async (tx) => {
      const lost = await this.messages.sweepLost(
        tx,
        this.config.webhooks.sweepGraceMs,
        BATCH_SIZE,
        now,
      );
      await this.queue.add(
        lost.map(({ id, attempts }) => ({
          messageId: id,
          jobId: `wh:${id}:${attempts}:${now.getTime()}`,
        })),
      );
      return lost.length;
    });
  }
}
