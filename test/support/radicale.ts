import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCalendarObject, makeCalendar } from 'tsdav';
import { radicaleEnvironment, radicaleProgram } from './radicale-program';

/**
 * A real CalDAV server for a test file: Radicale 3 (the machine's, or the copy the global set-up
 * fetched: radicale-program.ts), started from a configuration of this run (its own folder, a free port on 127.0.0.1), its users and passwords in a plain htpasswd file
 * (each owns `/<user>/`, and nothing else). Stopped, its folder removed, by stop().
 */
export class Radicale {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {}

  static async start(users: Record<string, string>): Promise<Radicale> {
    const program = radicaleProgram();
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'radicale-'));
    const config = join(dir, 'config');
    const htpasswd = join(dir, 'users');
    writeFileSync(
      htpasswd,
      Object.entries(users)
        .map(([user, password]) => `${user}:${password}\n`)
        .join(''),
    );
    writeFileSync(
      config,
      [
        '[server]',
        `hosts = 127.0.0.1:${port}`,
        '[auth]',
        'type = htpasswd',
        `htpasswd_filename = ${htpasswd}`,
        'htpasswd_encryption = plain',
        'delay = 0',
        '[rights]',
        'type = owner_only',
        '[storage]',
        `filesystem_folder = ${join(dir, 'collections')}`,
        '[logging]',
        'level = warning',
        '',
      ].join('\n'),
    );
    const child = spawn(program.command, [...program.args, '--config', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: radicaleEnvironment(program),
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const server = new Radicale(child, dir, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`radicale exited: ${stderr}`);
      try {
        await fetch(`${server.url}/.web/`);
        return server;
      } catch {
        if (Date.now() > deadline) throw new Error(`radicale did not answer: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Makes a calendar collection of `user`; its URL. */
  async calendar(user: string, password: string, name: string): Promise<string> {
    const url = `${this.url}/${user}/${name}/`;
    await makeCalendar({
      url,
      props: { displayname: name },
      headers: basic(user, password),
    });
    return url;
  }

  /** PUTs one calendar object (a VCALENDAR text) into the collection. */
  async put(calendarUrl: string, user: string, password: string, file: string, ics: string) {
    const response = await createCalendarObject({
      calendar: { url: calendarUrl },
      filename: file,
      iCalString: ics,
      headers: basic(user, password),
    });
    if (!response.ok) throw new Error(`PUT ${file}: ${response.status} ${await response.text()}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function basic(user: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
