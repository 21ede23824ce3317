import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ByteBudget, readText } from './bounded-body';
import {
  ResponseTooLargeError,
  TargetRefusedError,
  TargetUnresolvedError,
} from './outbound-errors';
import { pinnedFetch } from './pinned-fetch';

/**
 * The outbound fetch of calendar sync against a real local server: names are resolved by the
 * lookup given (no DNS leaves the machine), once, and the connection goes to what it answered;
 * bodies are read within a byte budget, as they stream.
 */
describe('pinnedFetch (a local HTTP server)', () => {
  let server: Server;
  let port: number;
  const hosts: string[] = [];
  /** Bytes the endless answer wrote, and whether its client went away. */
  const endless = { written: 0, closed: false };
  const inflated = 5 * 1024 * 1024;
  const gzip = gzipSync(Buffer.alloc(inflated, 'x'));

  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': gzip.length });
        return res.end(gzip);
      }
      if (req.url === '/3mb') return res.writeHead(200).end(Buffer.alloc(3 * 1024 * 1024, 'z'));
      if (req.url === '/declared') {
        // Says how long it is, then sends nothing: only the header can refuse it.
        return res.writeHead(200, { 'content-length': '1000' }).flushHeaders();
      }
      if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'y');
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) endless.written += chunk.length;
        };
        res.on('drain', pump);
        res.on('close', () => (endless.closed = true));
        return pump();
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = { extraPorts: 'any' as const, allowPrivateTargets: true };
  const strict = { extraPorts: 'any' as const, allowPrivateTargets: false };
  const signal = () => AbortSignal.timeout(5000);
  const local = (path = '/') => `http://127.0.0.1:${port}${path}`;

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
        expect(await readText(response, new ByteBudget(1000))).toBe('x'.repeat(100));
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
    ).rejects.toThrow(new TargetRefusedError('address 10.1.2.3 is not public'));
    await expect(pinnedFetch(local(), strict, signal())).rejects.toThrow(
      new TargetRefusedError('address 127.0.0.1 is not public'),
    );
    const http = await pinnedFetch(local(), open, signal());
    try {
      await expect(http.fetch(`http://127.0.0.2:${port}/`)).rejects.toThrow(
        new TargetRefusedError(`http://127.0.0.2:${port} is not the source's origin`),
      );
    } finally {
      await http.close();
    }
  });

  it('tells a name that does not resolve, or not in time, from a refused one', async () => {
    const missing = () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    await expect(pinnedFetch(`http://gone.test:${port}/`, open, signal(), missing)).rejects.toThrow(
      new TargetUnresolvedError('cannot resolve gone.test: ENOTFOUND'),
    );
    const never = () => new Promise<never>(() => undefined);
    // The lookup is no longer waited for once the signal fires; the signal's reason says why.
    await expect(
      pinnedFetch(`http://slow.test:${port}/`, open, AbortSignal.timeout(50), never),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  describe('bodies within a byte budget', () => {
    async function read(path: string, budget: ByteBudget): Promise<string> {
      const http = await pinnedFetch(local(path), open, signal());
      try {
        return await readText(await http.fetch(local(path)), budget);
      } finally {
        await http.close();
      }
    }

    it('refuses a body larger than the budget', async () => {
      await expect(read('/', new ByteBudget(99))).rejects.toThrow(new ResponseTooLargeError(99));
      await expect(read('/', new ByteBudget(100))).resolves.toBe('x'.repeat(100));
    });

    it('shares one budget between the answers of a task', async () => {
      const budget = new ByteBudget(150);
      await expect(read('/', budget)).resolves.toHaveLength(100);
      await expect(read('/', budget)).rejects.toThrow(ResponseTooLargeError);
    });

    it('refuses a declared length past the budget before reading it', async () => {
      await expect(read('/declared', new ByteBudget(999))).rejects.toThrow(
        new ResponseTooLargeError(999),
      );
    });

    it('counts the bytes as they inflate, not as they were sent', async () => {
      expect(gzip.length).toBeLessThan(64 * 1024);
      await expect(read('/gzip', new ByteBudget(1024 * 1024))).rejects.toThrow(
        new ResponseTooLargeError(1024 * 1024),
      );
      await expect(read('/gzip', new ByteBudget(inflated))).resolves.toHaveLength(inflated);
    });

    it('waits at the gate past its free bytes, reading nothing more until it opens', async () => {
      let open: () => void = () => undefined;
      let entered = false;
      const gate = {
        freeBytes: 1024 * 1024,
        enter: () => {
          entered = true;
          return new Promise<void>((resolve) => (open = resolve));
        },
      };
      const budget = new ByteBudget(10 * 1024 * 1024, gate);
      const reading = read('/3mb', budget);
      for (let i = 0; i < 200 && !entered; i++) await new Promise((r) => setTimeout(r, 10));
      expect(entered).toBe(true);
      const counted = budget.maxBytes - budget.remaining;
      expect(counted).toBeGreaterThan(gate.freeBytes);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(budget.maxBytes - budget.remaining).toBe(counted);
      open();
      await expect(reading).resolves.toHaveLength(3 * 1024 * 1024);
    });

    it('stops reading an endless body at the budget and drops the connection', async () => {
      const budget = 1024 * 1024;
      await expect(read('/endless', new ByteBudget(budget))).rejects.toThrow(
        new ResponseTooLargeError(budget),
      );
      for (let i = 0; i < 100 && !endless.closed; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(endless.closed).toBe(true);
      // What the server got out before it saw the close: the budget and the sockets' buffers.
      expect(endless.written).toBeLessThan(budget + 8 * 1024 * 1024);
    });
  });
});
