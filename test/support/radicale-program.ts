import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { unpackDebianPackages } from './debian-packages';

const run = promisify(execFile);

const ROOT = join(__dirname, '..', '..');

/** Radicale and what it imports, as Debian 12 packages them (python3-radicale 3.1.8). */
const DEBIAN_PACKAGES = [
  'python3-radicale',
  'python3-vobject',
  'python3-dateutil',
  'python3-defusedxml',
  'python3-passlib',
  'python3-six',
  'python3-tz',
];

/** The same Radicale from the Python package index, where there is no apt-get. */
const PIP_REQUIREMENT = 'radicale==3.1.8';

/** How to start Radicale on this machine: a program, its first arguments, the PYTHONPATH it needs. */
export interface RadicaleProgram {
  command: string;
  args: string[];
  pythonPath?: string;
}

/** The environment variable through which the global set-up tells the test files its answer. */
const PROGRAM_VARIABLE = 'SCHEDULING_TEST_RADICALE';
const MISSING_VARIABLE = 'SCHEDULING_TEST_RADICALE_MISSING';

/**
 * Finds or brings the CalDAV server of the calendar sync tests, once per run (the global set-up):
 * 1. a `radicale` on the PATH, or a Python that imports it (Debian's `radicale` package installed);
 * 2. else the copy this project fetched before, under node_modules/.cache/radicale;
 * 3. else Debian's packages fetched there now (`apt-get download` + `dpkg -x`, run with the
 *    system's Python: nothing is installed system-wide);
 * 4. else, without apt-get, `pip install --target` there from the Python package index.
 * Fetching prints one line. A failure does not stop the run: the CalDAV tests fail, saying why
 * (Radicale.start), and every other test runs.
 */
export async function provideRadicale(log: (line: string) => void): Promise<void> {
  try {
    const program = await findOrFetch(log);
    process.env[PROGRAM_VARIABLE] = JSON.stringify(program);
  } catch (err) {
    process.env[MISSING_VARIABLE] =
      'The CalDAV tests need Radicale, which is not installed and could not be fetched ' +
      `(Debian's python3-radicale with apt-get download, or pip install ${PIP_REQUIREMENT}): ` +
      (err instanceof Error ? err.message : String(err));
  }
}

/** What provideRadicale found, in a test file; throws its reason when it found nothing. */
export function radicaleProgram(): RadicaleProgram {
  const program = process.env[PROGRAM_VARIABLE];
  if (program) return JSON.parse(program) as RadicaleProgram;
  throw new Error(
    process.env[MISSING_VARIABLE] ??
      'Radicale was not provided: run the tests through jest, whose global set-up provides it',
  );
}

/** The environment Radicale runs in. */
export function radicaleEnvironment(program: RadicaleProgram): NodeJS.ProcessEnv {
  if (!program.pythonPath) return process.env;
  const inherited = process.env.PYTHONPATH;
  return {
    ...process.env,
    PYTHONPATH: inherited ? `${program.pythonPath}${delimiter}${inherited}` : program.pythonPath,
  };
}

async function findOrFetch(log: (line: string) => void): Promise<RadicaleProgram> {
  if (await works({ command: 'radicale', args: [] })) return { command: 'radicale', args: [] };
  // Debian's packages are built for Debian's Python; a Python of the PATH (pyenv's) may differ.
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const installed = { command: python, args: ['-m', 'radicale'] };
  if (await works(installed)) return installed;

  const cache = join(ROOT, 'node_modules', '.cache', 'radicale');
  const fromDebian = (root: string): RadicaleProgram => ({
    ...installed,
    pythonPath: join(root, 'usr', 'lib', 'python3', 'dist-packages'),
  });
  const fromPip = (target: string): RadicaleProgram => ({
    command: 'python3',
    args: ['-m', 'radicale'],
    pythonPath: target,
  });
  const debian = join(cache, 'debian');
  const pip = join(cache, 'pip');
  if (existsSync(join(debian, 'root'))) return checked(fromDebian(join(debian, 'root')));
  if (existsSync(join(pip, 'root'))) return checked(fromPip(join(pip, 'root')));

  if (await onPath('apt-get')) {
    log(
      `Radicale is not installed: fetching Debian's ${DEBIAN_PACKAGES.join(', ')} into ` +
        'node_modules/.cache/radicale (apt-get download + dpkg -x; nothing is installed system-wide)',
    );
    return checked(fromDebian(await unpackDebianPackages(debian, DEBIAN_PACKAGES)));
  }
  log(
    `Radicale is not installed: fetching ${PIP_REQUIREMENT} into node_modules/.cache/radicale ` +
      '(pip install --target; nothing is installed system-wide)',
  );
  const target = join(pip, 'root');
  await mkdir(pip, { recursive: true });
  const tmp = `${target}.${randomUUID()}.tmp`;
  try {
    await run(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--target',
        tmp,
        PIP_REQUIREMENT,
      ],
      { timeout: 300_000 },
    );
    await rename(tmp, target).catch((err: unknown) => {
      if (!existsSync(target)) throw err; // else another run was first: its copy is as good
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return checked(fromPip(target));
}

async function checked(program: RadicaleProgram): Promise<RadicaleProgram> {
  if (await works(program)) return program;
  throw new Error(
    `${[program.command, ...program.args].join(' ')} --version failed with PYTHONPATH ${program.pythonPath}`,
  );
}

/** Whether `program --version` runs (Radicale prints its version and exits). */
async function works(program: RadicaleProgram): Promise<boolean> {
  try {
    await run(program.command, [...program.args, '--version'], {
      env: radicaleEnvironment(program),
      timeout: 30_000,
    });
    return true;
  } catch {
    return false;
  }
}

async function onPath(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}
