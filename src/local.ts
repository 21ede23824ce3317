import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm start`: the API and the worker side by side, as two processes (as they run in pods), for a
 * developer machine. Ctrl-C (or SIGTERM) stops both gracefully; if either dies, the other is stopped.
 */
const children = new Map<string, ChildProcess>();
let stopping = false;
let exitCode = 0;

function start(name: string, script: string): void {
  const child = spawn(process.execPath, [join(__dirname, script)], {
    stdio: 'inherit',
    env: process.env,
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping the others\n`);
      exitCode = code || 1;
      stop('SIGTERM');
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

function stop(signal: NodeJS.Signals): void {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
}

// Ctrl-C reaches the whole process group: the children get it too and stop on their own.
process.on('SIGINT', () => {
  stopping = true;
});
process.on('SIGTERM', () => stop('SIGTERM'));

start('api', 'main.js');
start('worker', 'worker.js');
