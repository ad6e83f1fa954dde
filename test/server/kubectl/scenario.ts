/**
 * The conformance scenario one real kubectl runs against the server: the
 * everyday commands (create, apply, get in every output, watch, label,
 * scale, set image, delete, wait, api-resources, get all, a raw bookmark
 * watch, the create deployment/service generators), each checked on exact
 * stdout, stderr and exit code. The expected texts are what these kubectl
 * versions print against kube-apiserver.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { ResourceKind } from '../../../src/server/kinds/types.js';
import { apiVersionOf } from '../../../src/server/kinds/types.js';
import { expectFailure, expectOk, expectOkVerbose, jsonOf, tableByHeader, tableRows } from './expect.js';
import { createWithGenerators, type GeneratedObjects } from './generators.js';
import { type KubectlSession, loggedRequests } from './run.js';
import { watches } from './scenario-watches.js';

/** What one kubectl's scenario needs besides its session. */
export interface ScenarioContext {
  kubectl: KubectlSession;
  /** The served kinds, for `api-resources`. */
  kinds: readonly ResourceKind[];
  /** kubectl's minor version as run (the dispatcher runs the server's, 33). */
  minor: number;
  /** A node port of its own (node ports are cluster-wide: two kubectls may not ask for the same). */
  nodePort: number;
  /** Makes one write at once, to a resource no step watches (a kubectl is too slow for this). */
  touch(): Promise<void>;
}

/** The manifest of Deployment `web` (JSON, which is YAML too). */
function deployment(opts: {
  replicas: number;
  image: string;
  labels: Record<string, string>;
  env: Record<string, string>;
}): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: opts.labels },
    spec: {
      replicas: opts.replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: opts.image,
              ports: [{ containerPort: 80 }],
              env: Object.entries(opts.env).map(([name, value]) => ({ name, value })),
              resources: { limits: { cpu: '100m' } },
            },
          ],
        },
      },
    },
  });
}

/**
 * Runs every step in order; the first failed expectation ends the scenario. Returns the objects
 * the `create` generators stored, for the comparison across kubectl versions.
 */
export async function runScenario(ctx: ScenarioContext): Promise<GeneratedObjects> {
  await createNamespace(ctx);
  await applyDeployment(ctx);
  await getOutputs(ctx);
  await watches(ctx);
  await editDeployment(ctx);
  await discovery(ctx);
  await deletes(ctx);
  // Last, so that its objects stay out of the exact listings above.
  return createWithGenerators(ctx);
}

/** `create namespace` (kubectl 1.32+ sends the body as protobuf, with no JSON fallback). */
async function createNamespace({ kubectl, minor }: ScenarioContext): Promise<void> {
  const ns = kubectl.namespace;
  const created = await kubectl.run(['create', 'namespace', ns, '-v=8']);
  expectOkVerbose(created, `namespace/${ns} created\n`);
  // -v=8 logs the request headers first, then the response's.
  const sent = /Content-Type: (\S+)/.exec(created.stderr)?.[1];
  expect(sent).toBe(minor >= 32 ? 'application/vnd.kubernetes.protobuf' : 'application/json');
  expectFailure(
    await kubectl.run(['create', 'namespace', ns]),
    `Error from server (AlreadyExists): namespaces "${ns}" already exists\n`,
  );
}

/** Client-side apply: create, configure (strategic merge patch), unchanged. */
async function applyDeployment({ kubectl }: ScenarioContext): Promise<void> {
  const file = join(kubectl.dir, 'deploy.yaml');
  await writeFile(
    file,
    deployment({
      replicas: 1,
      image: 'nginx:1',
      labels: { app: 'web', tier: 'front' },
      env: { MODE: 'demo', DEBUG: '1' },
    }),
  );
  expectOk(await kubectl.inNamespace(['apply', '-f', file]), 'deployment.apps/web created\n');

  // kubectl 1.29+ computes this patch from the OpenAPI v3 schemas (1.27/1.28 from compiled-in
  // types): any warning on stderr (such as "OpenAPI V3 Components is nil") fails expectOk.
  await writeFile(
    file,
    deployment({
      replicas: 2,
      image: 'nginx:1.1',
      labels: { app: 'web' },
      env: { MODE: 'demo', LEVEL: '2' },
    }),
  );
  expectOk(await kubectl.inNamespace(['apply', '-f', file]), 'deployment.apps/web configured\n');
  const live = jsonOf(await kubectl.inNamespace(['get', 'deployment', 'web', '-o', 'json']));
  expect(live.metadata.labels).toEqual({ app: 'web' });
  expect(live.spec.replicas).toBe(2);
  expect(live.spec.template.spec.containers).toMatchObject([
    {
      name: 'c',
      image: 'nginx:1.1',
      ports: [{ containerPort: 80 }],
      env: [
        { name: 'MODE', value: 'demo' },
        { name: 'LEVEL', value: '2' },
      ],
    },
  ]);
  expect(live.metadata.generation).toBe(2);

  expectOk(await kubectl.inNamespace(['apply', '-f', file]), 'deployment.apps/web unchanged\n');
}

/** `get` as json, yaml, wide, with label and field selectors, and paginated. */
async function getOutputs({ kubectl }: ScenarioContext): Promise<void> {
  const ns = kubectl.namespace;
  const list = jsonOf(await kubectl.inNamespace(['get', 'deploy', '-o', 'json']));
  expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List', items: [{ kind: 'Deployment' }] });
  expect(list.items.map((d: { metadata: { name: string } }) => d.metadata.name)).toEqual(['web']);

  const yaml = await kubectl.inNamespace(['get', 'deploy', 'web', '-o', 'yaml']);
  expectOk(yaml, /^apiVersion: apps\/v1\n/);
  expect(parseYaml(yaml.stdout)).toMatchObject({
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns },
    spec: { replicas: 2 },
  });

  const wide = await kubectl.inNamespace(['get', 'deploy', '-o', 'wide']);
  expectOk(wide, /^NAME/);
  const [header, ...rows] = tableRows(wide.stdout);
  expect(header).toEqual([
    'NAME',
    'READY',
    'UP-TO-DATE',
    'AVAILABLE',
    'AGE',
    'CONTAINERS',
    'IMAGES',
    'SELECTOR',
  ]);
  expect(rows).toEqual([
    ['web', '0/2', '0', '0', expect.stringMatching(/^\d+s$/), 'c', 'nginx:1.1', 'app=web'],
  ]);

  // Five configmaps (for pagination) and pod py in one manifest; pod px by `kubectl run`.
  const names = [1, 2, 3, 4, 5].map((i) => `cm-${i}`);
  const file = join(kubectl.dir, 'objects.yaml');
  const configMaps = names.map(
    (name, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  n: "${i}"\n`,
  );
  const podPy =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: py\n  labels: {app: "y"}\nspec:\n  containers:\n  - {name: c, image: "nginx:1"}\n';
  await writeFile(file, [...configMaps, podPy].join('---\n'));
  expectOk(
    await kubectl.inNamespace(['apply', '-f', file]),
    `${names.map((n) => `configmap/${n} created\n`).join('')}pod/py created\n`,
  );
  expectOk(await kubectl.inNamespace(['run', 'px', '--image=nginx:1', '--labels=app=x']), 'pod/px created\n');

  const byLabel = await kubectl.inNamespace(['get', 'pods', '-l', 'app=x']);
  expectOk(byLabel, /^NAME/);
  expect(tableRows(byLabel.stdout)).toEqual([
    ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    ['px', '0/1', 'Pending', '0', expect.stringMatching(/^\d+s$/)],
  ]);
  const byField = await kubectl.inNamespace([
    'get',
    'po',
    '--field-selector',
    'metadata.name=py',
    '-o',
    'name',
  ]);
  expectOk(byField, 'pod/py\n');

  // -v=6 logs every request: the list must come in pages of 2, each Table continuing the last.
  const paged = await kubectl.inNamespace(['get', 'configmaps', '--chunk-size=2', '-v=6']);
  expectOkVerbose(paged, /^NAME/);
  expect(tableRows(paged.stdout).map((row) => row.slice(0, 2))).toEqual([
    ['NAME', 'DATA'],
    ...names.map((n) => [n, '1']),
  ]);
  const pages = loggedRequests(paged.stderr).filter((r) => r.url.pathname.endsWith('/configmaps'));
  expect(
    pages.map((r) => [r.status, r.url.searchParams.get('limit'), r.url.searchParams.has('continue')]),
  ).toEqual([
    ['200 OK', '2', false],
    ['200 OK', '2', true],
    ['200 OK', '2', true],
  ]);
}

/** label, annotate, scale (the /scale subresource), set image. */
async function editDeployment({ kubectl, minor }: ScenarioContext): Promise<void> {
  expectOk(
    await kubectl.inNamespace(['label', 'deployment', 'web', 'tier=back', 'gone=soon']),
    'deployment.apps/web labeled\n',
  );
  expectOk(
    await kubectl.inNamespace(['label', 'deployment', 'web', 'gone-']),
    'deployment.apps/web unlabeled\n',
  );
  // kubectl 1.27 printed the verb's stem.
  const annotated = minor <= 27 ? 'annotate' : 'annotated';
  expectOk(
    await kubectl.inNamespace(['annotate', 'deployment', 'web', 'note=hello']),
    `deployment.apps/web ${annotated}\n`,
  );
  expectOk(
    await kubectl.inNamespace(['scale', 'deployment', 'web', '--replicas=3']),
    'deployment.apps/web scaled\n',
  );
  expectOk(
    await kubectl.inNamespace(['set', 'image', 'deployment/web', 'c=nginx:2']),
    'deployment.apps/web image updated\n',
  );
  const live = jsonOf(await kubectl.inNamespace(['get', 'deployment', 'web', '-o', 'json']));
  expect(live.metadata.labels).toEqual({ app: 'web', tier: 'back' });
  expect(live.metadata.annotations.note).toBe('hello');
  expect(live.spec.replicas).toBe(3);
  expect(live.spec.template.spec.containers).toMatchObject([
    { name: 'c', image: 'nginx:2', env: [{ name: 'MODE' }, { name: 'LEVEL' }] },
  ]);
}

/** `api-resources` lists every served kind with its short names; `get all` covers the `all` category. */
async function discovery({ kubectl, kinds }: ScenarioContext): Promise<void> {
  const resources = await kubectl.run(['api-resources']);
  expectOk(resources, /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND\n/);
  const rows = tableByHeader(resources.stdout);
  // One row per resource of a group: its preferred version, the first served (autoscaling/v2's
  // HorizontalPodAutoscalers, not v1's).
  const preferred = kinds.filter(
    (k, i) => kinds.findIndex((x) => x.group === k.group && x.plural === k.plural) === i,
  );
  const expected = preferred.map((k) => ({
    NAME: k.plural,
    SHORTNAMES: k.shortNames.join(','),
    APIVERSION: apiVersionOf(k),
    NAMESPACED: String(k.namespaced),
    KIND: k.kind,
  }));
  const byName = (a: Record<string, string>, b: Record<string, string>) => a.NAME.localeCompare(b.NAME);
  expect([...rows].sort(byName)).toEqual([...expected].sort(byName));

  const service = join(kubectl.dir, 'service.yaml');
  await writeFile(
    service,
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n',
  );
  expectOk(await kubectl.inNamespace(['apply', '-f', service]), 'service/web created\n');
  const all = await kubectl.inNamespace(['get', 'all']);
  expectOk(all, /^NAME/);
  const names = tableRows(all.stdout)
    .map((row) => row[0])
    .filter((name) => name !== 'NAME');
  expect(names).toEqual(['pod/pw', 'pod/px', 'pod/py', 'service/web', 'deployment.apps/web']);
}

/** delete (one object, `-f`, a missing one) and `wait --for=delete` while the object goes. */
async function deletes({ kubectl, minor }: ScenarioContext): Promise<void> {
  const ns = kubectl.namespace;
  // kubectl 1.37 names the namespace a deleted object was in; 1.27 to 1.33 do not.
  const deleted = (what: string) => `${what} deleted${minor >= 37 ? ` from ${ns} namespace` : ''}\n`;
  expectOk(await kubectl.inNamespace(['delete', 'pod', 'py']), deleted('pod "py"'));
  expectFailure(
    await kubectl.inNamespace(['delete', 'pod', 'py']),
    'Error from server (NotFound): pods "py" not found\n',
  );
  expectOk(
    await kubectl.inNamespace(['delete', '-f', join(kubectl.dir, 'deploy.yaml')]),
    deleted('deployment.apps "web"'),
  );
  const gone = await kubectl.inNamespace(['get', 'deployments']);
  expect({ code: gone.code, stdout: gone.stdout, stderr: gone.stderr }, gone.command).toEqual({
    code: 0,
    stdout: '',
    stderr: `No resources found in ${ns} namespace.\n`,
  });

  // -v=6 logs each request once its answer starts, so the log shows when the watch is open.
  const wait = kubectl.start(['-n', ns, 'wait', '--for=delete', 'pod/px', '--timeout=10s', '-v=6']);
  await wait.waitFor('the watch on pod px', (_, err) =>
    loggedRequests(err).some((r) => r.url.searchParams.get('watch') === 'true' && r.status === '200 OK'),
  );
  expectOk(await kubectl.inNamespace(['delete', 'pod', 'px', '--wait=false']), deleted('pod "px"'));
  const waited = await wait.done;
  expectOkVerbose(waited, 'pod/px condition met\n');
  const watchUrl = loggedRequests(waited.stderr).find((r) => r.url.searchParams.get('watch') === 'true')!.url;
  expect(watchUrl.searchParams.get('fieldSelector')).toBe('metadata.name=px');
}
