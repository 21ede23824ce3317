import { Injectable } from '@nestjs/common';

/**
 * Whether the process has begun to stop (SIGTERM): then `/health/ready` answers 503 (the pod leaves
 * rotation while it still serves) and responses carry `Connection: close` (clients go elsewhere).
 */
@Injectable()
export class ShutdownState {
  draining = false;
}
