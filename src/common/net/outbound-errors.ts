/** Why an outbound request came to nothing; the message is for the operator's log only. */
export class OutboundRequestError extends Error {}

/** The policy refuses the target: its scheme, port or credentials, an address it resolves to. */
export class TargetRefusedError extends OutboundRequestError {}

/** The target's host name did not resolve (or not in time). */
export class TargetUnresolvedError extends OutboundRequestError {}

/** The answers were larger than the bytes allowed. */
export class ResponseTooLargeError extends OutboundRequestError {
  constructor(readonly maxBytes: number) {
    super(`the response is larger than ${maxBytes} bytes`);
  }
}
