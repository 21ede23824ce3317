import { AppConfig } from '../../config/app-config';
import { classifyMailError, transportOptions } from './mail-sender';

describe('classifyMailError', () => {
  const smtp = (responseCode: number, permanent: boolean) =>
    Object.assign(new Error(`${responseCode} nope`), {
      code: 'EENVELOPE',
      responseCode,
      permanent,
    });

  it.each([
    ['a permanent SMTP reply (5xx)', smtp(550, true), 'failed'],
    ['a transient SMTP reply (4xx)', smtp(451, false), 'retry'],
    ['503, which nodemailer does not call permanent', smtp(503, false), 'retry'],
    [
      'a closed connection',
      Object.assign(new Error('Connection closed'), { code: 'ECONNECTION' }),
      'retry',
    ],
    ['a refused connection', Object.assign(new Error('refused'), { code: 'ESOCKET' }), 'retry'],
    [
      'a timeout',
      Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' }),
      'retry',
    ],
    [
      'an envelope the client refuses without asking the server',
      Object.assign(new Error('No recipients defined'), { code: 'EENVELOPE' }),
      'failed',
    ],
    ['anything else', new Error('odd'), 'retry'],
  ])('%s → %s', (_what, err, kind) => {
    expect(classifyMailError(err).kind).toBe(kind);
  });

  it('keeps the code and the message for the record', () => {
    expect(classifyMailError(smtp(451, false))).toEqual({
      kind: 'retry',
      error: 'EENVELOPE: 451 nope',
    });
  });
});

describe('transportOptions', () => {
  it('uses the configured server, TLS mode and credentials', () => {
    const config = AppConfig.fromEnvironment({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '465',
      SMTP_SECURE: 'true',
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'pw',
    });
    expect(transportOptions(config.notifications.mail)).toMatchObject({
      pool: true,
      host: 'smtp.example.com',
      port: 465,
      secure: true,
      requireTLS: false,
      auth: { user: 'mailer', pass: 'pw' },
    });
  });

  it('sends without authentication when no user is configured', () => {
    const options = transportOptions(AppConfig.fromEnvironment({}).notifications.mail);
    expect(options).toMatchObject({ host: '127.0.0.1', port: 1025, secure: false });
    expect(options).not.toHaveProperty('auth');
  });
});
