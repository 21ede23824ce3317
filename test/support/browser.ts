import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');

/**
 * The browser of the tests: Chromium as the npm package @sparticuz/chromium ships it (a dev
 * dependency; `npm ci` installs it like any package, nothing is downloaded), so that every machine
 * tests the same browser and none needs one installed. The package holds a brotli-compressed
 * headless Chromium for Linux x64 and the three libraries it needs beyond glibc (NSS, NSPR, expat),
 * which we unpack once per version under node_modules/.cache. CHROMIUM_PATH names another
 * Chromium instead (on a Mac, say: the package has no build for it).
 */
const PACKAGE = join(ROOT, 'node_modules', '@sparticuz', 'chromium');

/**
 * The flags of a browser on a machine whose network is closed: headless, no sandbox (the tests may
 * run as root), and none of the background connections Chromium makes to Google's services.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Chromium {
  executablePath: string;
  /** Folder of the libraries shipped with it, for LD_LIBRARY_PATH. */
  libraryPath?: string;
}

/**
 * Makes `path` (a file or a folder) with `write` at a temporary path, then renames it into place:
 * test workers unpacking at the same time each see all of it or nothing.
 */
async function writeAtomically(path: string, write: (tmp: string) => Promise<void>): Promise<void> {
  if (existsSync(path)) return;
  const tmp = `${path}.${randomUUID()}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, path).catch((err: unknown) => {
      if (!existsSync(path)) throw err; // else another worker was first: its copy is as good
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

function brotli(file: string): Readable {
  return createReadStream(file).pipe(createBrotliDecompress());
}

/**
 * Unpacks a .tar.br into `dir` (Debian's tar reads the tar; Node has no tar reader of its own). The
 * tar is written out first, then read by tar from the file: piped into tar's stdin, tar may exit at
 * the archive's end marker before the zero padding after it is written, which fails the pipe
 * ("Premature close", seen on Node 24 with @sparticuz/chromium 143's archive).
 */
async function untar(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const archive = `${dir}.tar`;
  try {
    await pipeline(brotli(file), createWriteStream(archive));
    const tar = spawn('tar', ['-x', '-f', archive, '-C', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => tar.on('exit', resolve));
    if (code !== 0) throw new Error(`tar exited ${code} unpacking ${file}`);
  } finally {
    await rm(archive, { force: true });
  }
}

/** The packaged Chromium, unpacked (once per package version) into node_modules/.cache. */
async function packagedChromium(): Promise<Chromium> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `@sparticuz/chromium ships Chromium for Linux x64 only; on ${process.platform}-${process.arch} set CHROMIUM_PATH to a Chromium or Chrome binary`,
    );
  const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(ROOT, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
  await mkdir(dir, { recursive: true });
  const executablePath = join(dir, 'chromium');
  await writeAtomically(executablePath, async (tmp) => {
    await pipeline(brotli(join(PACKAGE, 'bin', 'chromium.br')), createWriteStream(tmp));
    await chmod(tmp, 0o755);
  });
  // Built for Amazon Linux 2023 (glibc 2.34), they load on any newer glibc (Debian 12: 2.36).
  const libraries = join(dir, 'al2023');
  await writeAtomically(libraries, (tmp) => untar(join(PACKAGE, 'bin', 'al2023.tar.br'), tmp));
  return { executablePath, libraryPath: join(libraries, 'lib') };
}

export interface TestBrowser {
  /** A browser context of its own, with a fresh profile (cookies, cache). */
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** The Chromium to launch and the environment it needs (its libraries). */
async function chromiumToLaunch(): Promise<{ executablePath: string; env: NodeJS.ProcessEnv }> {
  const { executablePath, libraryPath } = process.env.CHROMIUM_PATH
    ? { executablePath: process.env.CHROMIUM_PATH }
    : await packagedChromium();
  const env = { ...process.env };
  if (libraryPath)
    env.LD_LIBRARY_PATH = [libraryPath, env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { executablePath, env };
}

/**
 * Starts Chromium, trying again when it dies while starting. The packaged build now and then
 * crashes (SIGSEGV) before it answers on its pipe on a loaded 2-core machine ("Target page, context
 * or browser has been closed" from launch): a crash of the browser binary at start, before any
 * page of ours is loaded, so a second start is a new browser and hides nothing about the service.
 * A crash after launch still fails the test.
 */
async function startWithRetry<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts) throw err;
      process.stderr.write(
        `Chromium did not start (attempt ${attempt}): ${String(err).split('\n')[0]}\n`,
      );
    }
  }
}

/**
 * Launches headless Chromium, driven by playwright-core, with a new empty profile. Every browser
 * test launches through here (or launchChromium).
 */
export async function launchBrowser(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<TestBrowser> {
  const { executablePath, env } = await chromiumToLaunch();
  // A profile of its own for every attempt: a browser that crashed may have left its lock behind.
  const { context, userDataDir } = await startWithRetry(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'test-chromium-'));
    try {
      const launched = await chromium.launchPersistentContext(dir, {
        executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        env,
        ...options,
      });
      return { context: launched, userDataDir: dir };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Launches headless Chromium as one browser in which a test opens contexts of its own
 * (`browser.newContext()`: separate cookies and storage, like two people's browsers), e.g. two
 * clients racing for one time. Close the browser after.
 */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, env } = await chromiumToLaunch();
  return startWithRetry(() =>
    chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS, env }),
  );
}
