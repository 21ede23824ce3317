import { ResponseTooLargeError } from './outbound-errors';

/**
 * Where a task's reading waits past its first bytes: `enter` is awaited once, when the task has read
 * more than `freeBytes` (no more is read meanwhile: the sender is held by TCP's flow control).
 */
export interface LargeReadGate {
  freeBytes: number;
  enter(): Promise<void>;
}

/**
 * The bytes a caller may still read from outside, shared by every answer of one task (a calendar
 * source's sync reads a PROPFIND's answer and a REPORT's from one budget), so that no sequence of
 * answers holds more than `maxBytes` between them.
 */
export class ByteBudget {
  private used = 0;
  private entered = false;

  constructor(
    readonly maxBytes: number,
    private readonly gate?: LargeReadGate,
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
 * A response's body as it arrives (decompressed: a small gzip that inflates past the budget is
 * refused as it inflates), counted against `budget`. A length the server declares larger than what
 * is left is refused before a byte is read; past the budget the body is cancelled, so the rest is
 * never read and the connection goes.
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

/** A body read whole as UTF-8 text, within `budget`. */
export async function readText(response: Response, budget: ByteBudget): Promise<string> {
  let text = '';
  for await (const piece of boundedText(response, budget)) text += piece;
  return text;
}
