import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundRequestError, pinnedFetch, readLimited } from './pinned-fetch';

/**
 * The outbound fetch of calendar sync against a real local server: names are resolved by the
 * lookup given (no DNS leaves the machine), once, and the connection goes to what it answered.
 */
describe('pinnedFetch (a local HTTP server)', () => {
  let server: Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const open = { extraPorts: 'any' as const, allowPrivateTargets: true };
  const strict = { extraPorts: 'any' as const, allowPrivateTargets: false };
  const signal = () => AbortSignal.timeout(5000);

  it('connects to the address the lookup gave, once, keeping the host name', async () => {
    let lookups = 0;
    const lookup = () => {
      lookups++;
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const url = `http://calendar.test:${port}/feed.ics`;
    const http = await pinnedFetch(url, open, signal(), lookup);
    try {
      for (let i = 0; i < 2; i++) {
        const response = await http.fetch(url);
        expect(await readLimited(response, 1000)).toBe('x'.repeat(100));
      }
    } finally {
      await http.close();
    }
    expect(lookups).toBe(1);
    expect(hosts.slice(-2)).toEqual([`calendar.test:${port}`, `calendar.test:${port}`]);
  });

  it('refuses a name that resolves to a private address unless allowed, and another origin', async () => {
    const lookup = () => Promise.resolve([{ address: '10.1.2.3', family: 4 }]);
    await expect(
      pinnedFetch(`http://intranet.test:${port}/`, strict, signal(), lookup),
    ).rejects.toThrow(new OutboundRequestError('address 10.1.2.3 is not public'));
    await expect(pinnedFetch(`http://127.0.0.1:${port}/`, strict, signal())).rejects.toThrow(
      new OutboundRequestError('address 127.0.0.1 is not public'),
    );
    const http = await pinnedFetch(`http://127.0.0.1:${port}/`, open, signal());
    try {
      await expect(http.fetch(`http://127.0.0.2:${port}/`)).rejects.toThrow(
        `http://127.0.0.2:${port} is not the source's origin`,
      );
    } finally {
      await http.close();
    }
  });

  it('refuses a body larger than the limit', async () => {
    const http = await pinnedFetch(`http://127.0.0.1:${port}/`, open, signal());
    try {
      const response = await http.fetch(`http://127.0.0.1:${port}/`);
      await expect(readLimited(response, 99)).rejects.toThrow(
        'the response is larger than 99 bytes',
      );
    } finally {
      await http.close();
    }
  });
});
