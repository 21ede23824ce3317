import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What one apt-get or dpkg call may take before the fetch gives up (a closed or slow network). */
const STEP_TIMEOUT_MS = 120_000;

/**
 * Debian packages unpacked into `dir` (its `root/` holds their files, as `/` would), for a test
 * server the machine does not have installed: `apt-get download` fetches the .deb files into a
 * folder of ours and `dpkg -x` unpacks each, so nothing is installed system-wide, nothing needs a
 * package database lock, and removing `dir` removes every trace.
 *
 * apt-get reads the machine's package lists first; where those are missing or stale (a container
 * whose lists were cleaned, a mirror that moved on), it fetches lists of its own into `dir` and
 * tries again. Several test runs may fetch at once: each unpacks into a folder of its own and
 * renames it into place, so a reader sees all of `dir` or none of it. Returns `dir/root`.
 */
export async function unpackDebianPackages(dir: string, packages: string[]): Promise<string> {
  const root = join(dir, 'root');
  if (existsSync(root)) return root;
  const work = `${dir}.${randomUUID()}.tmp`;
  try {
    const debs = join(work, 'debs');
    await mkdir(debs, { recursive: true });
    try {
      await apt(['download', ...packages], debs, []);
    } catch {
      const lists = await ownPackageLists(work);
      await apt(['download', ...packages], debs, lists);
    }
    const unpacked = join(work, 'root');
    for (const deb of await readdir(debs)) {
      if (deb.endsWith('.deb'))
        await run('dpkg', ['-x', join(debs, deb), unpacked], { timeout: STEP_TIMEOUT_MS });
    }
    await rm(debs, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await rename(unpacked, root).catch((err: unknown) => {
      if (!existsSync(root)) throw err; // else another run was first: its copy is as good
    });
    return root;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** apt-get options that keep its package lists and cache in `work` (an `apt-get update` of ours). */
async function ownPackageLists(work: string): Promise<string[]> {
  const lists = join(work, 'lists');
  const cache = join(work, 'cache');
  await mkdir(join(lists, 'partial'), { recursive: true });
  await mkdir(join(cache, 'archives', 'partial'), { recursive: true });
  const options = [
    '-o',
    `Dir::State::Lists=${lists}`,
    '-o',
    `Dir::Cache=${cache}`,
    '-o',
    'Dir::Cache::pkgcache=',
    '-o',
    'Dir::Cache::srcpkgcache=',
  ];
  await apt(['update'], work, options);
  return options;
}

async function apt(args: string[], cwd: string, options: string[]): Promise<void> {
  // As root, apt drops to its `_apt` user to download, who may not write to our folder (it then
  // warns and downloads as root anyway); downloading as root from the start says nothing.
  const sandbox = process.getuid?.() === 0 ? ['-o', 'APT::Sandbox::User=root'] : [];
  await run('apt-get', ['-q', ...sandbox, ...options, ...args], {
    cwd,
    timeout: STEP_TIMEOUT_MS,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
