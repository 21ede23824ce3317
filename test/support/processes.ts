import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Every child process a test started and that still runs. A test stops its children itself, in a
 * `finally` or an `afterAll`; whatever is left when its file ends (an assertion or a time-out
 * skipped the stop) is killed by stopChildren(), which test/support/stop-children.ts runs after
 * every test file, and at the latest when the test process exits. So no child outlives its test
 * file, and jest never waits on one.
 */
const running = new Set<ChildProcess>();

/** Adds a child to the registry until it exits. */
export function track<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Kills (SIGKILL) every tracked child still running and waits until they have exited. */
export async function stopChildren(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Runs a TypeScript entry point of src/ in a child process, as `node` would run the build, on the
 * Node.js that runs the tests (process.execPath: the pinned one). The child has an IPC channel: the
 * API and the worker tell their port over it, and stop if this process goes away.
 */
export function spawnEntry(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return track(
    spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', entry), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...env },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    ),
  );
}

/** A process of the service that listens, started by startEntry. */
export interface Started {
  child: ChildProcess;
  /** The port the system picked for it. */
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Its exit, with everything it wrote (collected from its start). */
  exit: Promise<Finished>;
}

/**
 * Starts `main.ts` (the API) or `worker.ts` on a port the system picks (PORT=0, WORKER_PORT=0,
 * unless `env` names one), and resolves with that port once the process listens: no port is
 * chosen first and raced for. Rejects, with what the process wrote, if it exits first or is not
 * listening after `timeoutMs` (then it is killed).
 */
export function startEntry(
  entry: 'main.ts' | 'worker.ts',
  env: NodeJS.ProcessEnv,
  timeoutMs = 90_000,
): Promise<Started> {
  const child = spawnEntry(entry, [], { PORT: '0', WORKER_PORT: '0', ...env });
  const exit = finished(child);
  return new Promise<Started>((resolve, reject) => {
    const fail = async (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const { stdout, stderr } = await exit;
      reject(new Error(`${entry} ${reason}\n${stderr}\n${stdout.slice(-4000)}`));
    };
    const timer = setTimeout(
      () => void fail(`was not listening within ${timeoutMs} ms`),
      timeoutMs,
    );
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      void fail(`exited (${signal ?? code}) before listening`);
    child.once('exit', onExit);
    child.on('message', (message: { listening?: number }) => {
      if (typeof message.listening !== 'number') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      const port = message.listening;
      resolve({ child, port, url: `http://127.0.0.1:${port}`, exit });
    });
  });
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Collects a child's output until it exits and its output is read: 'close', not 'exit', which may
 * come before the last of stdout and stderr is (seen: a CLI's exit code 1 with its stderr empty).
 */
export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

export interface CliResult extends Finished {
  /** The JSON on the last line of stdout. */
  result: Record<string, unknown> | undefined;
}

/** `npm run cli -- <args>` against the run's test database. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const done = await finished(spawnEntry('cli.ts', args, env));
  const last = done.stdout.trim().split('\n').pop();
  let result: Record<string, unknown> | undefined;
  try {
    result = last ? (JSON.parse(last) as Record<string, unknown>) : undefined;
  } catch {
    result = undefined;
  }
  return { ...done, result };
}

/** Polls an HTTP URL until it answers `status` (or the time is up). */
export async function waitForStatus(
  url: string,
  status: number,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === status) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves with the first JSON line of the child's stdout that `matches` (or fails after the time). */
export function waitForLine(
  child: ChildProcess,
  matches: (line: Record<string, unknown>) => boolean,
  timeoutMs = 3000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let pending = '';
    const timer = setTimeout(() => {
      child.stdout?.off('data', onData);
      reject(new Error(`no matching log line within ${timeoutMs} ms`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const text of lines) {
        let line: Record<string, unknown>;
        try {
          line = JSON.parse(text) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (matches(line)) {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          resolve(line);
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
  });
}
