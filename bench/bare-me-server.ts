/* The baseline of bench:http: node:http answering GET /api/v1/me with the same JSON, nothing else. */
import { createServer } from 'node:http';

const body = process.env.BARE_BODY ?? '{}';
const port = Number(process.env.BARE_PORT ?? 3999);

createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/v1/me') {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  res.writeHead(404).end();
}).listen(port, '127.0.0.1');

// Exit on SIGTERM rather than die of it, so that --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.once('SIGTERM', () => process.exit(0));
