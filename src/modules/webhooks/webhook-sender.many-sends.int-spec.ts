import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { eventually } from '../../../test/support/eventually';
import { WebhookSender } from './webhook-sender';
import { BODY, OPEN, cleanups, closeAll, fixedLookup, signed } from './webhook-sender.fixtures';

/*
 * WebhookSender: many sends to one receiver. The receivers, senders and lookups (all on this
 * machine): webhook-sender.fixtures.ts.
 */

afterEach(closeAll);

/** A receiver in its own process (its own CPU), counting what it saw; stats over IPC. */
const CHILD_RECEIVER = `
const http = require('node:http');
const stats = { posts: 0, connections: 0, open: 0 };
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { stats.posts += 1; res.end('ok'); });
});
server.on('connection', (socket) => {
  stats.connections += 1;
  stats.open += 1;
  socket.on('close', () => { stats.open -= 1; });
});
process.on('message', () => process.send(stats));
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

interface ChildStats {
  posts: number;
  connections: number;
  open: number;
}

describe('WebhookSender: many sends', () => {
  it('delivers 5,000 webhooks to one receiver on a bounded set of kept-alive sockets', async () => {
    const child = spawn(process.execPath, ['-e', CHILD_RECEIVER], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) {
        child.kill();
        await once(child, 'exit');
      }
    });
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    const stats = async () => {
      child.send('stats');
      const [value] = (await once(child, 'message')) as [ChildStats];
      return value;
    };

    const lookup = fixedLookup({ 'receiver.test': ['127.0.0.1'] });
    const webhooks = new WebhookSender(OPEN, { lookup, connectionsPerOrigin: 64 });
    const kinds = new Map<string, number>();
    const deliver = async (total: number, concurrency: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < total) {
            next += 1;
            const { kind } = await webhooks.send(
              `http://receiver.test:${port}/hook`,
              BODY,
              signed(`msg_${next}_1`),
            );
            kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          }
        }),
      );
    };

    // How fast is bench:webhooks' question; here: every send delivered, sockets bounded and freed.
    await deliver(500, 100);
    await deliver(5000, 100);

    expect(Object.fromEntries(kinds)).toEqual({ delivered: 5500 });
    const during = await stats();
    expect(during.posts).toBe(5500);
    expect(during.connections).toBeLessThanOrEqual(64); // kept alive and reused, never one per send
    expect(webhooks['pins'].size).toBe(0); // nothing stays pinned once the sends are over

    await webhooks.close();
    await eventually(async () => ((await stats()).open === 0 ? true : undefined), 5000);
  });
});
