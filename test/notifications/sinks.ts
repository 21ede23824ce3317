import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { MailConfig } from '../../src/config/app-config';

/** One e-mail the sink accepted: its envelope and its parsed content. */
export interface ReceivedMail {
  /** The envelope recipient (RCPT TO). */
  to: string;
  /** The envelope sender (MAIL FROM). */
  from: string;
  /** The SMTP AUTH user of the session, if any. */
  user: string | undefined;
  parsed: ParsedMail;
}

/**
 * How the sink answers a recipient, chosen by the local part of its address so that tests running
 * at once against one sink do not disturb each other:
 * - `tempfail…@`: 451 to every RCPT TO (a transient refusal: retried);
 * - `flaky…@`: 451 to the first RCPT TO of that address, then accepted;
 * - `reject…@`: 554 (a permanent refusal: not retried);
 * - `hangup…@`: the connection is closed without an answer;
 * - anything else: accepted.
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  /** Every RCPT TO the sink saw, accepted or not, by address. */
  readonly attempts = new Map<string, number>();
  private readonly server: SMTPServer;

  private constructor(private readonly credentials: { user: string; password: string }) {
    this.server = new SMTPServer({
      // Plain SMTP on 127.0.0.1: no STARTTLS (its self-signed certificate would be refused).
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      disableReverseLookup: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === credentials.user && auth.password === credentials.password)
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onRcptTo: (address, session, callback) => {
        const to = address.address.toLowerCase();
        const nth = (this.attempts.get(to) ?? 0) + 1;
        this.attempts.set(to, nth);
        if (to.startsWith('tempfail') || (to.startsWith('flaky') && nth === 1))
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        if (to.startsWith('reject'))
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 554 }));
        if (to.startsWith('hangup')) {
          this.socketOf(session)?.destroy();
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            for (const rcpt of session.envelope.rcptTo) {
              this.mails.push({
                to: rcpt.address.toLowerCase(),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                user: typeof session.user === 'string' ? session.user : undefined,
                parsed,
              });
            }
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  static async start(credentials: { user: string; password: string }): Promise<SmtpSink> {
    const sink = new SmtpSink(credentials);
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The service's mail settings that send to this sink: plain SMTP on 127.0.0.1, its login. */
  mailConfig(): MailConfig {
    return {
      host: '127.0.0.1',
      port: this.port,
      secure: false,
      requireTls: false,
      auth: this.credentials,
      from: 'bookings@example.test',
    };
  }

  received(to: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to === to.toLowerCase());
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The socket of a session (smtp-server keeps its connections in a set). */
  private socketOf(session: SMTPServerSession): Socket | undefined {
    for (const connection of this.server.connections as Set<{
      session?: SMTPServerSession;
      _socket?: Socket;
    }>) {
      if (connection.session?.id === session.id) return connection._socket;
    }
    return undefined;
  }
}

/** One SMS the sink was asked to send. */
export interface ReceivedSms {
  path: string;
  headers: IncomingHttpHeaders;
  to: string;
  from: string;
  body: string;
}

/**
 * A Twilio-style SMS API on 127.0.0.1: `POST /2010-04-01/Accounts/{sid}/Messages.json`, answering
 * 201 `{sid}`; by the `To` number: `…500` answers 500 (retried), `…400` answers 400 with a
 * Twilio-style error (not retried). Records every request, failed ones included.
 */
export class SmsSink {
  readonly requests: ReceivedSms[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const sms: ReceivedSms = {
          path: req.url ?? '',
          headers: req.headers,
          to: form.get('To') ?? '',
          from: form.get('From') ?? '',
          body: form.get('Body') ?? '',
        };
        this.requests.push(sms);
        const [status, answer] = sms.to.endsWith('500')
          ? [500, { code: 20500, message: 'Internal Server Error' }]
          : sms.to.endsWith('400')
            ? [
                400,
                { code: 21211, message: `The 'To' number ${sms.to} is not a valid phone number.` },
              ]
            : [201, { sid: `SM${this.requests.length}`, status: 'queued' }];
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      });
    });
  }

  static async start(): Promise<SmsSink> {
    const sink = new SmsSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  /** The base URL to configure (`SMS_API_URL`). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/2010-04-01`;
  }

  received(to: string): ReceivedSms[] {
    return this.requests.filter((r) => r.to === to);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
