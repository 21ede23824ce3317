import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LineBatches, RequestLogController, createRootLogger, logFormat } from './logging.module';

describe('logFormat: pretty for a person at a terminal, JSON for machines', () => {
  it.each([
    ['development', true, 'pretty'],
    ['development', false, 'json'], // piped or redirected: `npm start > log`, a container without -t
    ['development', undefined, 'json'], // stdout not a stream of a terminal at all
    ['test', true, 'json'],
    ['production', true, 'json'], // `docker run -it` of the image still writes JSON
    ['production', false, 'json'],
  ] as const)('NODE_ENV=%s, stdout a TTY: %s → %s', (nodeEnv, isTTY, format) => {
    expect(logFormat(nodeEnv, isTTY)).toBe(format);
  });
});

describe('createRootLogger', () => {
  it('writes one JSON object per line by default', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    createRootLogger('info', 'api', sink).info({ port: 3000 }, 'API listening');
    expect(JSON.parse(lines.join(''))).toMatchObject({
      level: 30,
      service: 'api',
      port: 3000,
      msg: 'API listening',
    });
  });
});

describe('RequestLogController', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, sink: { write: (line: string) => void lines.push(line) } };
  };
  const completed = (url: string, id = 'req-1') =>
    [
      null,
      { id, method: 'GET', url } as FastifyRequest,
      { statusCode: 200, elapsedTime: 1.2345678 } as FastifyReply,
    ] as const;

  it.each([
    '/api/v1/me',
    '/api/v1/appointments?ids[]=1&ids[]=2',
    '/api/v1/"quoted"\\back\u00e9',
    '/api/v1/control\u0001\nchars',
    '/api/v1/pair\ud83d\ude00',
  ])('writes the line pino writes for the same fields (%s)', (url) => {
    const { lines, sink } = capture();
    const logger = createRootLogger('info', 'api', sink);
    new RequestLogController(logger).requestCompleted(...completed(url));
    logger.info(
      { reqId: 'req-1', method: 'GET', url, statusCode: 200, responseTime: 1.2345678 },
      'request completed',
    );
    const [ours, pinos] = lines.map((line) => line.replace(/"time":\d+/, '"time":0'));
    expect(ours).toBe(pinos);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, service: 'api', url });
  });

  it('escapes a lone surrogate, which pino would write as it is', () => {
    const { lines, sink } = capture();
    const url = '/api/v1/lone\ud800';
    new RequestLogController(createRootLogger('info', 'api', sink)).requestCompleted(
      ...completed(url),
    );
    expect(lines[0]).toContain('"url":"/api/v1/lone\\ud800"');
    expect(JSON.parse(lines[0])).toMatchObject({ url });
  });

  it('writes nothing above info, nor for health probes', () => {
    const { lines, sink } = capture();
    new RequestLogController(createRootLogger('warn', 'api', sink)).requestCompleted(
      ...completed('/api/v1/me'),
    );
    new RequestLogController(createRootLogger('info', 'api', sink)).requestCompleted(
      ...completed('/health/live'),
    );
    expect(lines).toEqual([]);
  });
});

describe('LineBatches', () => {
  it('hands lines on in batches, and what is pending on flush', () => {
    const written: string[] = [];
    const destination = {
      write: (batch: string) => void written.push(batch),
      flush: (cb?: () => void) => cb?.(),
      flushSync: () => undefined,
    } as unknown as ConstructorParameters<typeof LineBatches>[0];
    const batches = new LineBatches(destination, 10, 60_000);
    batches.write('12345\n');
    expect(written).toEqual([]);
    batches.write('67890\n');
    expect(written).toEqual(['12345\n67890\n']);
    batches.write('abc\n');
    batches.flushSync();
    batches.flushSync();
    expect(written).toEqual(['12345\n67890\n', 'abc\n']);
  });
});
