import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Where a request is between its arrival and the end of its response. */
export const enum SlotState {
  /** Waiting for Redis's verdict. */
  Pending,
  /** Released when the response closes. */
  Admitted,
  /** The response closed before the verdict: a slot granted then is released at once. */
  Closed,
  /** Refused, or released. */
  Settled,
}

/** What a slot reports to when its response closes (the RequestLimiter). */
export interface SlotOwner {
  responseClosed(slot: Slot): void;
}

/** A request's admission, and its place in its client's count of requests in flight. */
export class Slot {
  state = SlotState.Pending;

  constructor(
    readonly limiter: SlotOwner,
    readonly client: string,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly done: HookHandlerDoneFunction,
  ) {}
}

const SLOT = Symbol('requestLimitSlot');
type LimitedResponse = ServerResponse & { [SLOT]?: Slot };

/** One listener for every response (`this` is the response): no closure per request. */
function onResponseClose(this: LimitedResponse): void {
  const slot = this[SLOT];
  if (slot !== undefined) slot.limiter.responseClosed(slot);
}

export function watchResponse(slot: Slot): void {
  const res = slot.reply.raw as LimitedResponse;
  res[SLOT] = slot;
  res.on('close', onResponseClose);
}
