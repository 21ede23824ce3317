// Checks the Kubernetes manifests offline (CI: `npm run deploy:check`), in three passes:
//
// 1. Schemas: every object against the Kubernetes OpenAPI schema of its kind, as shipped by the
//    npm packages kubernetes-models (core API), @kubernetes-models/keda (ScaledObject) and
//    @kubernetes-models/prometheus-operator (ServiceMonitor): types, formats, required fields.
// 2. No unknown field: the same packages' TypeScript declarations, against which every object is
//    type-checked as an object literal, so that a misspelt field (`readinesProbe`) is an error, as
//    kubeconform's -strict would make it.
// 3. The manifests against each other and against the service: kustomizations list every file
//    and nothing missing; selectors, ports, probe ports, ConfigMap/Secret references and scale
//    targets resolve; every ConfigMap/Secret key is a variable of .env.example; probes use the
//    service's health paths; grace periods cover SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS; the
//    KEDA lists are the Bull wait lists of QUEUE_PREFIX and the service's queues.
//
// Usage: node deploy/check.mjs [directory]   (default: the deploy/ folder beside this file)
// Prints each problem and exits 1 when there is one; prints a summary and exits 0 otherwise.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = resolve(process.argv[2] ?? join(ROOT, 'deploy'));
const problems = [];
const problem = (where, message) => problems.push(`${where}: ${message}`);

/** Where the model (class and TypeScript interface) of each apiVersion lives. */
const MODEL_PACKAGES = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

const KUSTOMIZATION_KEYS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'labels',
  'resources',
  'images',
]);

// ---- reading -----------------------------------------------------------------------------------

/** Every kustomization folder under DIR, and the objects of the files it lists. */
function readKustomizations() {
  const folders = [];
  const walk = (dir) => {
    if (existsSync(join(dir, 'kustomization.yaml'))) folders.push(dir);
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
    }
  };
  walk(DIR);
  if (folders.length === 0) problem(rel(DIR), 'no kustomization.yaml');

  const objects = [];
  for (const folder of folders) {
    const file = join(folder, 'kustomization.yaml');
    const [k] = readYaml(file);
    if (!k) continue;
    const where = rel(file);
    if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization')
      problem(where, 'not a kustomize.config.k8s.io/v1beta1 Kustomization');
    for (const key of Object.keys(k))
      if (!KUSTOMIZATION_KEYS.has(key)) problem(where, `unexpected field "${key}"`);
    if (typeof k.namespace !== 'string') problem(where, 'no namespace');
    const listed = new Set();
    for (const resource of k.resources ?? []) {
      const path = join(folder, resource);
      listed.add(resource);
      if (!existsSync(path)) {
        problem(where, `resource ${resource} does not exist`);
        continue;
      }
      readYaml(path).forEach((object, index) =>
        objects.push({ object, where: `${rel(path)}#${index + 1}`, folder, kustomization: k }),
      );
    }
    for (const entry of readdirSync(folder))
      if (/\.ya?ml$/.test(entry) && entry !== 'kustomization.yaml' && !listed.has(entry))
        problem(where, `${entry} is not listed in resources`);
  }
  return { folders, objects };
}

function readYaml(path) {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'));
  const objects = [];
  for (const doc of docs) {
    for (const error of doc.errors) problem(rel(path), `YAML: ${error.message}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) objects.push(value);
  }
  return objects;
}

const rel = (path) => relative(ROOT, path) || '.';

// ---- 1. schemas --------------------------------------------------------------------------------

async function checkSchemas(objects) {
  for (const { object, where } of objects) {
    const pkg = MODEL_PACKAGES[object.apiVersion];
    if (!pkg) {
      problem(where, `no schema for apiVersion ${object.apiVersion}`);
      continue;
    }
    const Model = (await import(pkg))[object.kind];
    if (typeof Model !== 'function') {
      problem(where, `no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (e) {
      problem(where, `schema: ${e.message}`);
    }
  }
}

// ---- 2. no unknown field -----------------------------------------------------------------------

function checkFields(objects) {
  const known = objects.filter(({ object }) => MODEL_PACKAGES[object.apiVersion]);
  // The program's lines, and for each the manifest it comes from (none for the imports).
  const lines = [];
  const owners = [];
  const add = (text, owner) => {
    for (const line of text.split('\n')) {
      lines.push(line);
      owners.push(owner);
    }
  };
  known.forEach(({ object }, i) =>
    add(
      `import type { I${object.kind} as T${i} } from '${MODEL_PACKAGES[object.apiVersion]}/${object.kind}';`,
    ),
  );
  known.forEach(({ object, where }, i) =>
    add(`export const m${i}: T${i} = ${JSON.stringify(object, null, 2)};`, where),
  );
  const lineOwner = (line) => owners[line];

  const file = join(ROOT, 'deploy', '__manifests__.mts');
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const content = lines.join('\n');
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    resolve(name) === file
      ? ts.createSourceFile(name, content, language, true)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === file || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (resolve(name) === file ? content : readFile(name));
  const program = ts.createProgram({ rootNames: [file], options, host });
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').pop();
    if (d.file && resolve(d.file.fileName) === file && d.start !== undefined) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      problem(lineOwner(line) ?? rel(file), `field: ${message}`);
    } else {
      problem('TypeScript', message);
    }
  }
}

// ---- 3. the manifests against each other and the service ---------------------------------------

function checkConsistency(folders, objects) {
  const all = (kind) => objects.filter(({ object }) => object.kind === kind);
  const byName = (kind, name) => all(kind).find(({ object }) => object.metadata?.name === name);
  const env = new Map();
  for (const { object } of [...all('ConfigMap'), ...all('Secret')])
    for (const [key, value] of Object.entries({ ...object.data, ...object.stringData }))
      env.set(key, String(value));
  const variables = envExampleVariables();
  for (const { object, where } of [...all('ConfigMap'), ...all('Secret')])
    for (const key of Object.keys({ ...object.data, ...object.stringData }))
      if (!variables.has(key)) problem(where, `${key} is not a variable of the service`);
  const ms = (name) => Number(env.get(name) ?? 0);

  if (env.get('DB_MIGRATE_ON_START') !== 'false')
    problem('ConfigMap', 'DB_MIGRATE_ON_START must be "false": the migration Job migrates');

  const workloads = [...all('Deployment'), ...all('Job')];
  for (const { object, where, kustomization } of workloads) {
    const podSpec = object.spec?.template?.spec ?? {};
    const podLabels = object.spec?.template?.metadata?.labels ?? {};
    if (object.kind === 'Deployment' && !matches(object.spec?.selector?.matchLabels, podLabels))
      problem(where, 'the selector does not match the pod template labels');
    for (const container of podSpec.containers ?? []) {
      for (const source of container.envFrom ?? []) {
        const ref = source.configMapRef ?? source.secretRef;
        const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
        if (!byName(kind, ref?.name)) problem(where, `envFrom: no ${kind} ${ref?.name}`);
      }
      if (!(kustomization.images ?? []).some((i) => i.name === container.image))
        problem(where, `image ${container.image} is not set by the kustomization's images`);
      const portNames = new Set((container.ports ?? []).map((p) => p.name));
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const httpGet = container[probe]?.httpGet;
        if (object.kind === 'Job') continue;
        if (!httpGet) {
          problem(where, `${container.name}: no ${probe}`);
          continue;
        }
        if (!portNames.has(httpGet.port))
          problem(
            where,
            `${container.name}: ${probe} port ${httpGet.port} is not a container port`,
          );
        const path = probe === 'readinessProbe' ? '/health/ready' : '/health/live';
        if (httpGet.path !== path) problem(where, `${container.name}: ${probe} must GET ${path}`);
      }
      const role = container.args?.[0];
      const port = (name) => container.ports?.find((p) => p.name === name)?.containerPort;
      if (role === 'api') {
        if (port('http') !== ms('PORT')) problem(where, 'the http port is not PORT');
        if (port('metrics') !== ms('METRICS_PORT'))
          problem(where, 'the metrics port is not METRICS_PORT');
        const readiness = container.readinessProbe ?? {};
        const detection =
          (readiness.periodSeconds ?? 10) * (readiness.failureThreshold ?? 3) * 1000;
        if (ms('SHUTDOWN_DRAIN_MS') <= detection)
          problem(where, `SHUTDOWN_DRAIN_MS must exceed the readiness probe's ${detection} ms`);
        checkGrace(where, podSpec, ms('SHUTDOWN_DRAIN_MS') + ms('SHUTDOWN_TIMEOUT_MS'));
      } else if (role === 'worker') {
        if (port('worker') !== ms('WORKER_PORT'))
          problem(where, 'the worker port is not WORKER_PORT');
        checkGrace(where, podSpec, ms('SHUTDOWN_TIMEOUT_MS'));
      } else if (role === 'cli') {
        if (container.args[1] !== 'db:migrate') problem(where, 'a Job here runs cli db:migrate');
      } else {
        problem(where, `${container.name}: args must start with api, worker or cli`);
      }
    }
  }

  const deployments = all('Deployment');
  const podsOf = (selector) =>
    deployments.filter(({ object }) => matches(selector, object.spec.template.metadata.labels));
  for (const { object, where } of all('Service')) {
    const pods = podsOf(object.spec?.selector);
    if (pods.length !== 1) {
      problem(where, `the selector matches ${pods.length} Deployments, not 1`);
      continue;
    }
    const ports = new Set(
      pods[0].object.spec.template.spec.containers.flatMap((c) =>
        (c.ports ?? []).map((p) => p.name),
      ),
    );
    for (const port of object.spec.ports ?? [])
      if (!ports.has(port.targetPort))
        problem(where, `targetPort ${port.targetPort} is not a container port`);
  }
  for (const { object, where } of all('PodDisruptionBudget'))
    if (podsOf(object.spec?.selector?.matchLabels).length !== 1)
      problem(where, 'the selector does not match exactly one Deployment');
  for (const { object, where } of [...all('HorizontalPodAutoscaler'), ...all('ScaledObject')])
    if (!byName('Deployment', object.spec?.scaleTargetRef?.name))
      problem(where, `no Deployment ${object.spec?.scaleTargetRef?.name} to scale`);
  const scaled = new Map();
  for (const { object, where } of [...all('HorizontalPodAutoscaler'), ...all('ScaledObject')]) {
    const target = object.spec.scaleTargetRef.name;
    if (scaled.has(target)) problem(where, `${target} is scaled by two autoscalers`);
    scaled.set(target, where);
  }

  const queues = queueNames();
  for (const { object, where } of all('ScaledObject')) {
    if ((object.spec.minReplicaCount ?? 0) < 1)
      problem(where, 'minReplicaCount must be 1 or more: the outbox relay runs in workers');
    for (const trigger of object.spec.triggers ?? []) {
      if (trigger.type !== 'redis') continue;
      const m = trigger.metadata;
      const wanted = queues.map((q) => `${env.get('QUEUE_PREFIX')}:${q}:wait`);
      if (!wanted.includes(m.listName))
        problem(where, `listName ${m.listName} is not one of ${wanted.join(', ')}`);
      if (m.databaseIndex !== env.get('REDIS_DB')) problem(where, 'databaseIndex is not REDIS_DB');
      for (const key of ['hostFromEnv', 'portFromEnv', 'passwordFromEnv'])
        if (m[key] && !env.has(m[key])) problem(where, `${key}: ${m[key]} is not set`);
    }
  }
  for (const { object, where } of all('ServiceMonitor')) {
    const services = all('Service').filter(({ object: s }) =>
      matches(object.spec.selector?.matchLabels, s.metadata.labels ?? {}),
    );
    for (const endpoint of object.spec.endpoints ?? [])
      if (!services.some(({ object: s }) => s.spec.ports.some((p) => p.name === endpoint.port)))
        problem(where, `no selected Service has a port ${endpoint.port}`);
  }
}

function checkGrace(where, podSpec, neededMs) {
  const grace = podSpec.terminationGracePeriodSeconds ?? 30;
  if (grace * 1000 < neededMs + 5000)
    problem(where, `terminationGracePeriodSeconds ${grace} must be ≥ ${(neededMs + 5000) / 1000}`);
}

function matches(selector, labels) {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([key, value]) => labels?.[key] === value);
}

/** The variables the service reads: the keys of .env.example. */
function envExampleVariables() {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  return new Set([...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
}

/** The service's queues, from src/common/queues/queue-names.ts. */
function queueNames() {
  const text = readFileSync(join(ROOT, 'src', 'common', 'queues', 'queue-names.ts'), 'utf8');
  return [...text.matchAll(/^\s+[A-Z][A-Za-z]+ = '([a-z-]+)',/gm)].map((m) => m[1]);
}

// ---- main --------------------------------------------------------------------------------------

const { folders, objects } = readKustomizations();
await checkSchemas(objects);
checkFields(objects);
checkConsistency(folders, objects);
if (problems.length > 0) {
  for (const line of problems) process.stdout.write(`${line}\n`);
  process.stdout.write(`${problems.length} problem(s) in ${rel(DIR)}\n`);
  process.exit(1);
}
const kinds = [...new Set(objects.map(({ object }) => object.kind))].sort();
process.stdout.write(
  `${objects.length} objects in ${folders.length} kustomizations (${folders.map((f) => rel(f)).join(', ')}) valid: ${kinds.join(', ')}\n`,
);
