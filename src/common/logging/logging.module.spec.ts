import { Writable } from 'node:stream';
import { createRootLogger, logFormat } from './logging.module';

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
