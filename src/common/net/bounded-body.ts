import { ResponseTooLargeError } from './outbound-errors';

/** The bytes one task may still read from outside, over all its answers (`maxBytes` in all). */
export class ByteBudget {
  private used = 0;
  private entered = false;

  constructor(
    readonly maxBytes: number,
    /** Entered once the task has read past `freeBytes` (TCP's flow control holds the sender). */
    private readonly gate?: { freeBytes: number; enter(): Promise<void> },
  ) {}

  get remaining(): number {
    return this.maxBytes - this.used;
  }

  /** Counts `bytes` read; throws ResponseTooLargeError past the budget, waits at the gate. */
  async take(bytes: number): Promise<void> {
    this.used += bytes;
    if (this.used > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
    if (this.gate && !this.entered && this.used > this.gate.freeBytes) {
      this.entered = true;
      await this.gate.enter();
    }
  }
}

/**
 * A response's body as it arrives, decompressed (a gzip bomb is refused as it inflates), counted
 * against `budget`: a declared length past it is refused before a byte is read, and past it the
 * body is cancelled, so the rest is never read.
 */
export async function* boundedChunks(
  response: Response,
  budget: ByteBudget,
): AsyncGenerator<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > budget.remaining) {
    await response.body?.cancel();
    throw new ResponseTooLargeError(budget.maxBytes);
  }
  if (!response.body) return;
  // Leaving the loop (a throw here or in the consumer) cancels the stream.
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    await budget.take(chunk.byteLength);
    yield chunk;
  }
}

/** A body decoded as UTF-8 as it arrives, within `budget`. */
export async function* boundedText(response: Response, budget: ByteBudget): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of boundedChunks(response, budget))
    yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

export async function readText(response: Response, budget: ByteBudget): Promise<string> {
  let text = '';
  for await (const piece of boundedText(response, budget)) text += piece;
  return text;
}
