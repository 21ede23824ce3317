import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Servers a test run starts once and shares between its test files (jest runs files in several
 * worker processes): a Redis Cluster, a MariaDB primary with its replica. The first file that asks
 * for one starts it (a directory made with mkdir is the lock: one maker per run); the others wait
 * for its `ready.json`. The servers are detached from the file that started them and stopped by
 * the run's global teardown (stopSharedServers), which also removes their data.
 */
export function sharedServersDir(): string {
  const run = process.env.SCHEDULING_TEST_RUN ?? `t${process.pid}`;
  return join(tmpdir(), `scheduling-${run}-servers`);
}

interface Started<T> {
  info: T;
  pids: number[];
}

const START_TIMEOUT_MS = 120_000;

export async function sharedServer<T>(
  name: string,
  start: (dir: string, pids: number[]) => Promise<T>,
): Promise<T> {
  const dir = join(sharedServersDir(), name);
  await mkdir(sharedServersDir(), { recursive: true });
  const ready = join(dir, 'ready.json');
  const failed = join(dir, 'failed.txt');
  try {
    await mkdir(dir);
  } catch {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (existsSync(ready)) return (JSON.parse(await readFile(ready, 'utf8')) as Started<T>).info;
      if (existsSync(failed)) throw new Error(`${name}: ${await readFile(failed, 'utf8')}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start in time`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Every process started is written down at once, so that the teardown stops it even when the
  // start fails half-way.
  const pids: number[] = [];
  try {
    const info = await start(dir, pids);
    await writeFile(ready, JSON.stringify({ info, pids } satisfies Started<T>));
    return info;
  } catch (err) {
    await writeFile(join(dir, 'pids.json'), JSON.stringify(pids));
    await writeFile(failed, err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/** A server process that outlives the test file starting it (stopped by stopSharedServers). */
export function spawnDetached(
  command: string,
  args: string[],
  log: string,
  pids: number[],
): number {
  const child = spawn('sh', ['-c', 'exec "$0" "$@" >>"$LOG" 2>&1', command, ...args], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, LOG: log },
  });
  child.unref();
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  pids.push(child.pid);
  return child.pid;
}

/** Stops every shared server of the run and removes their files (the global teardown). */
export async function stopSharedServers(): Promise<void> {
  const root = sharedServersDir();
  if (!existsSync(root)) return;
  for (const name of await readdir(root)) {
    const dir = join(root, name);
    for (const file of ['ready.json', 'pids.json']) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Started<unknown> | number[];
      for (const pid of Array.isArray(parsed) ? parsed : parsed.pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }
  // The killed servers may still hold files a moment.
  await new Promise((r) => setTimeout(r, 200));
  await rm(root, { recursive: true, force: true });
}
