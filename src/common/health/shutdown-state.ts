import { Injectable } from '@nestjs/common';

/**
 * Whether the process has begun to stop (SIGTERM). From then on `/health/ready` answers 503, so that
 * load balancers and Kubernetes take the pod out of rotation while it still serves (see
 * closeGracefully), and the API's responses carry `Connection: close`, so that clients holding
 * keep-alive connections to it open new ones, elsewhere.
 */
@Injectable()
export class ShutdownState {
  draining = false;
}
