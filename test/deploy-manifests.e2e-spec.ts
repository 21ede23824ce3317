import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = join(__dirname, '..');

/** `npm run deploy:check` on a folder: its exit code and output. */
function check(dir?: string): { code: number | null; out: string } {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'deploy', 'check.mjs'), ...(dir ? [dir] : [])],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return { code: run.status, out: run.stdout + run.stderr };
}

/** The Kubernetes manifests, checked offline as CI checks them (deploy/check.mjs). */
describe('Kubernetes manifests (deploy/)', () => {
  let copy: string;
  beforeEach(() => {
    copy = mkdtempSync(join(tmpdir(), 'deploy-'));
    cpSync(join(ROOT, 'deploy'), copy, { recursive: true });
  });
  afterEach(() => rmSync(copy, { recursive: true, force: true }));

  const edit = (file: string, from: string | RegExp, to: string) => {
    const path = join(copy, file);
    const text = readFileSync(path, 'utf8');
    const changed = text.replace(from, to);
    expect(changed).not.toBe(text);
    writeFileSync(path, changed);
  };

  it('are valid', () => {
    const { code, out } = check();
    expect(out).toMatch(/^12 objects in 2 kustomizations \(deploy, deploy\/migrate\) valid: /);
    expect(code).toBe(0);
  });

  it('refuses a misspelt field, a wrong type and a field of no schema', () => {
    edit('api-deployment.yaml', '          readinessProbe:', '          readinesProbe:');
    edit('worker-deployment.yaml', 'containerPort: 3001', "containerPort: '3001x'");
    edit(
      'worker-scaledobject.yaml',
      '  minReplicaCount: 1',
      '  minReplicaCount: 1\n  minReplicas: 1',
    );
    const { code, out } = check(copy);
    expect(code).toBe(1);
    expect(out).toContain(
      `api-deployment.yaml#1: field: Object literal may only specify known properties, and '"readinesProbe"' does not exist in type 'IContainer'.`,
    );
    expect(out).toContain(
      'worker-deployment.yaml#1: schema: data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
    );
    // @kubernetes-models/keda 0.4 (the last that installs on Node 20 without an engine warning)
    // spells the ScaledObject spec's type out inline rather than naming it.
    expect(out).toContain(
      `worker-scaledobject.yaml#1: field: Object literal may only specify known properties, and '"minReplicas"' does not exist in type`,
    );
  });

  it('refuses manifests that disagree with the service or with each other', () => {
    edit(
      'config.yaml',
      "  DB_MIGRATE_ON_START: 'false'",
      "  DB_MIGRATE_ON_START: 'true'\n  DB_MIGRATE: 'true'",
    );
    edit(
      'worker-scaledobject.yaml',
      'scheduling:notifications:wait',
      'scheduling:notification:wait',
    );
    edit(
      'api-deployment.yaml',
      'terminationGracePeriodSeconds: 45',
      'terminationGracePeriodSeconds: 30',
    );
    edit('api-service.yaml', 'targetPort: metrics', 'targetPort: prometheus');
    edit('kustomization.yaml', '  - worker-pdb.yaml\n', '');
    const { code, out } = check(copy);
    expect(code).toBe(1);
    expect(
      out
        .trim()
        .split('\n')
        .slice(0, -1)
        .map((line) => line.replace(/^.*?deploy-[^/]+\//, '')),
    ).toEqual(
      expect.arrayContaining([
        'kustomization.yaml: worker-pdb.yaml is not listed in resources',
        'config.yaml#1: DB_MIGRATE is not a variable of the service',
        'ConfigMap: DB_MIGRATE_ON_START must be "false": the migration Job migrates',
        'api-deployment.yaml#1: terminationGracePeriodSeconds 30 must be ≥ 45',
        'api-service.yaml#1: targetPort prometheus is not a container port',
        'worker-scaledobject.yaml#1: listName scheduling:notification:wait is not one of scheduling:domain-events:wait, scheduling:webhook-deliveries:wait, scheduling:notifications:wait',
      ]),
    );
  });
});
