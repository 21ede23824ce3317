import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Runs a TypeScript entry point of src/ in a child process, as `node` would run the build. */
export function spawnEntry(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', entry), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
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
