import { type FactoryProvider, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { Agent, request } from 'undici';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { AppConfig, type SmsConfig } from '../../config/app-config';
import { type SendOutcome, sendErrorOf } from './send-outcome';

/** The SMS provider adapter: one short text to one phone number. Never throws. */
export abstract class SmsSender {
  abstract send(to: string, body: string): Promise<SendOutcome>;
}

/** Development: the SMS goes to the worker's log, and counts as sent. */
export class LogSmsSender extends SmsSender {
  constructor(private readonly logger: Logger) {
    super();
  }

  send(to: string, body: string): Promise<SendOutcome> {
    this.logger.info({ sms: { to, body } }, 'SMS (log driver: not sent)');
    return Promise.resolve({ kind: 'sent', providerMessageId: null });
  }
}

const TIMEOUT_MS = 10_000;
/** Enough of an answer to read the message id or the error. */
const MAX_RESPONSE_BYTES = 16_384;

/**
 * A Twilio-style REST API: `POST {apiUrl}/Accounts/{sid}/Messages.json`, form-encoded `To`, `From`,
 * `Body`, Basic auth `sid:token`. 2xx is sent (its `sid` the message id); a 5xx, a 429 or a network
 * error is retried; any other answer is failed (a bad number, bad credentials).
 */
export class HttpSmsSender extends SmsSender implements OnApplicationShutdown {
  private readonly agent = new Agent({
    connect: { timeout: TIMEOUT_MS },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  private readonly url: string;
  private readonly authorization: string;

  constructor(private readonly config: Extract<SmsConfig, { driver: 'http' }>) {
    super();
    this.url = `${config.apiUrl}/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  }

  async send(to: string, body: string): Promise<SendOutcome> {
    try {
      const response = await request(this.url, {
        method: 'POST',
        headers: {
          authorization: this.authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: to, From: this.config.from, Body: body }).toString(),
        dispatcher: this.agent,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await readSome(response.body);
      const status = response.statusCode;
      if (status >= 200 && status < 300)
        return { kind: 'sent', providerMessageId: fieldOf(text, 'sid') ?? null };
      // A Twilio-style error body (`{code, message}`) says why.
      const message = fieldOf(text, 'message');
      const error = `HTTP ${status}${message ? `: ${message}` : ''}`;
      return { kind: status >= 500 || status === 429 ? 'retry' : 'failed', error };
    } catch (err) {
      return { kind: 'retry', error: sendErrorOf(err) };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}

async function readSome(body: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (size < MAX_RESPONSE_BYTES) chunks.push(buffer);
    size += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES);
}

/** A string field of a JSON answer, if the answer is JSON and has it. */
function fieldOf(text: string, field: 'sid' | 'message'): string | undefined {
  try {
    const value = (JSON.parse(text) as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export const smsSenderProvider: FactoryProvider<SmsSender> = {
  provide: SmsSender,
  inject: [AppConfig, ROOT_LOGGER],
  useFactory: (config: AppConfig, logger: Logger) => {
    const sms = config.notifications.sms;
    return sms.driver === 'http' ? new HttpSmsSender(sms) : new LogSmsSender(logger);
  },
};
