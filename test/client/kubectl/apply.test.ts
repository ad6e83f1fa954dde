/**
 * Client-side apply against the real thing: the same manifests applied by
 * watchmark and by the real kubectl (on PATH) to one in-process server, in
 * twin namespaces, must print the same lines and leave the same objects:
 * created, configured (a field removed from the file is removed, a field
 * another writer added is kept), unchanged.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import {
  applyAll,
  applyObject,
  LAST_APPLIED_ANNOTATION,
  lastAppliedConfiguration,
  refOf,
} from '../../../src/client/kubectl/apply.js';
import { goJson, ManifestError, parseManifests } from '../../../src/client/kubectl/manifest.js';
import { threeWayPatch } from '../../../src/client/kubectl/three-way.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { runCli } from '../../helpers/cli.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { KubectlSession } from '../../server/kubectl/run.js';

/** The user's first manifest: a Deployment with two containers and env, a ConfigMap. */
function v1(ns: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels: {app: web, tier: front}
  annotations: {note: "front & <back>"}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1.27
        env: [{name: A, value: "1"}, {name: B, value: "2"}]
      - name: side
        image: busybox:1.36
      volumes:
      - name: conf
        configMap: {name: cfg, defaultMode: 0644}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {mode: "0644", x: "y"}
`;
}

/** The next version: new image and replicas; env A, the sidecar, a label and a data key removed. */
function v2(ns: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels: {app: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1.28
        env: [{name: B, value: "2"}]
      volumes:
      - name: conf
        configMap: {name: cfg, defaultMode: 0644}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {x: "z"}
`;
}

describe('parseManifests', () => {
  it('reads multi-document YAML as kubectl: empty documents skipped, Lists expanded, 0644 octal', async () => {
    const objects = await parseManifests(
      `---\n${v1('a')}---\n# only a comment\n---\n{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}]}\n`,
      'f.yaml',
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'Deployment/web',
      'ConfigMap/cfg',
      'Secret/s',
    ]);
    const spec = objects[0].spec as {
      template: { spec: { volumes: Array<{ configMap: { defaultMode: number } }> } };
    };
    expect(spec.template.spec.volumes[0].configMap.defaultMode).toBe(0o644);
    expect((objects[1].data as Record<string, string>).mode).toBe('0644');
  });

  it('names the document and the problem', async () => {
    await expect(parseManifests('a: [1, 2\n', 'bad.yaml')).rejects.toThrow(
      /^bad\.yaml: invalid YAML: line \d+: /,
    );
    await expect(
      parseManifests('apiVersion: v1\nkind: ConfigMap\n---\nkind: Pod\n', 'f.yaml'),
    ).rejects.toThrow('f.yaml: document 1: ConfigMap object has no metadata.name');
    await expect(parseManifests('metadata: {name: x}\n', 'f.yaml')).rejects.toThrow(
      'f.yaml: object has no apiVersion, kind',
    );
    await expect(parseManifests('- a\n- b\n', 'STDIN')).rejects.toBeInstanceOf(ManifestError);
  });
});

describe('last-applied configuration', () => {
  it('is Go JSON: sorted keys, HTML characters escaped, annotations present, trailing newline', () => {
    expect(goJson({ b: '<&>', a: [{ z: 1, y: null }] })).toBe(
      '{"a":[{"y":null,"z":1}],"b":"\\u003c\\u0026\\u003e"}',
    );
    const object: KubeObject = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c', annotations: { [LAST_APPLIED_ANNOTATION]: 'old' } },
    };
    expect(lastAppliedConfiguration(object)).toBe(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{},"name":"c"}}\n',
    );
    expect(refOf({ group: 'apps', kind: 'Deployment' }, 'web')).toBe('deployment.apps/web');
    expect(refOf({ group: '', kind: 'ConfigMap' }, 'c')).toBe('configmap/c');
  });

  it('three-way patch removes a nested list element even when its parent element also changed', () => {
    const original = {
      kind: 'Deployment',
      spec: {
        template: { spec: { containers: [{ name: 'c', image: 'a', env: [{ name: 'A' }, { name: 'B' }] }] } },
      },
    };
    const modified = {
      kind: 'Deployment',
      spec: { template: { spec: { containers: [{ name: 'c', image: 'b', env: [{ name: 'B' }] }] } } },
    };
    const patch = threeWayPatch(original, modified, structuredClone(original), 'Deployment');
    const containers = (patch.spec as any).template.spec.containers;
    expect(containers).toEqual([
      {
        name: 'c',
        image: 'b',
        env: [{ name: 'A', $patch: 'delete' }],
        '$setElementOrder/env': [{ name: 'B' }],
      },
    ]);
  });
});

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('apply, compared with kubectl apply', () => {
  let dir: string;
  let server: RunningServer;
  let kube: KubeClient;
  let kubectl: KubectlSession;

  const tempDir = tempDirForFile('watchmark-apply-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      kubeconfigOut: join(dir, 'kubeconfig'),
      bookmarkInterval: 1000,
    });
    await mkdir(join(dir, 'kubectl', 'home'), { recursive: true });
    kubectl = new KubectlSession(kubectls[0], join(dir, 'kubectl'), server.kubeconfigPath!, 'kc');
    kube = await KubeClient.load({ kubeconfig: server.kubeconfigPath });
    for (const ns of ['wm', 'kc']) await kube.resource('namespaces').create({ metadata: { name: ns } });
  });

  afterAll(async () => {
    await kubectl?.close();
    await kube?.close();
    await server?.close();
  });

  /** Applies `text` both ways; returns each side's printed lines. */
  async function applyBoth(text: (ns: string) => string, name: string) {
    const wm = await applyAll(kube, await parseManifests(text('wm'), name), {
      namespace: 'wm',
      source: name,
    });
    expect(wm.errors).toEqual([]);
    const file = join(dir, name);
    await writeFile(file, text('kc'));
    const kc = await kubectl.run(['apply', '-n', 'kc', '-f', file]);
    expect(kc.code, kc.stderr).toBe(0);
    return { wm: wm.results.map((r) => `${r.ref} ${r.action}`), kc: kc.stdout.trim().split('\n') };
  }

  /** The live object without server-set fields, its namespace written as NS. */
  async function live(resource: string, ns: string, name: string): Promise<unknown> {
    const o = structuredClone(await kube.resource(resource, ns).get(name)) as KubeObject;
    const m = o.metadata!;
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation'])
      delete m[k];
    delete o.status;
    return JSON.parse(JSON.stringify(o).replaceAll(`\\"${ns}\\"`, '\\"NS\\"').replaceAll(`"${ns}"`, '"NS"'));
  }

  async function expectSameObjects() {
    for (const [resource, name] of [
      ['deployments', 'web'],
      ['configmaps', 'cfg'],
    ]) {
      expect(await live(resource, 'wm', name)).toEqual(await live(resource, 'kc', name));
    }
  }

  it('creates, configures (removing what the file no longer has, keeping what others added), then is unchanged', async () => {
    const created = await applyBoth(v1, 'v1.yaml');
    expect(created.wm).toEqual(['deployment.apps/web created', 'configmap/cfg created']);
    expect(created.wm).toEqual(created.kc);
    await expectSameObjects();

    // Another writer adds a label the file never had: apply must keep it.
    for (const ns of ['wm', 'kc']) {
      await kube
        .resource('deployments', ns)
        .patch('web', { metadata: { labels: { owner: 'someone-else' } } });
    }
    const configured = await applyBoth(v2, 'v2.yaml');
    expect(configured.wm).toEqual(['deployment.apps/web configured', 'configmap/cfg configured']);
    expect(configured.wm).toEqual(configured.kc);
    await expectSameObjects();
    const web = (await kube.resource('deployments', 'wm').get('web')) as any;
    expect(web.metadata.labels).toEqual({ app: 'web', owner: 'someone-else' });
    expect(web.metadata.annotations.note).toBeUndefined();
    expect(web.spec.template.spec.containers.map((c: any) => [c.name, c.image, c.env])).toEqual([
      ['c', 'nginx:1.28', [{ name: 'B', value: '2' }]],
    ]);
    expect(((await kube.resource('configmaps', 'wm').get('cfg')) as any).data).toEqual({ x: 'z' });

    const again = await applyBoth(v2, 'v2.yaml');
    expect(again.wm).toEqual(['deployment.apps/web unchanged', 'configmap/cfg unchanged']);
    expect(again.wm).toEqual(again.kc);
  });

  it('two appliers creating one object at once both succeed: the one that loses the race applies to the winner', async () => {
    for (let round = 0; round < 3; round++) {
      const manifest = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `race-${round}`, namespace: 'wm' },
        data: { a: 'b' },
      };
      // Both read "not found" before either creates: the second create is an AlreadyExists.
      const [one, two] = await Promise.all([
        applyObject(kube, manifest, { source: 'a.yaml' }),
        applyObject(kube, manifest, { source: 'b.yaml' }),
      ]);
      expect([one.action, two.action].sort()).toEqual(['created', 'unchanged']);
    }
  });

  it('warns like kubectl when the live object lacks the annotation, and adds it', async () => {
    const cm = (ns: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bare, namespace: ${ns}}\ndata: {a: "1"}\n`;
    for (const ns of ['wm', 'kc'])
      await kube.resource('configmaps', ns).create({ metadata: { name: 'bare' }, data: { a: '0' } });
    const file = join(dir, 'bare.yaml');
    await writeFile(file, cm('kc'));
    const kc = await kubectl.run(['apply', '-f', file]);
    const wm = await applyAll(kube, await parseManifests(cm('wm'), 'bare.yaml'));
    expect(wm.results[0].warning?.replace('configmaps/bare', 'X')).toBe(
      kc.stderr.trim().replace('configmaps/bare', 'X'),
    );
    expect(`${wm.results[0].ref} ${wm.results[0].action}`).toBe(kc.stdout.trim());
    expect(await live('configmaps', 'wm', 'bare')).toEqual(await live('configmaps', 'kc', 'bare'));
  });

  it('watchmark apply -f: kubectl lines on stdout; one-line errors and exit 1 for a bad file or a failed object', async () => {
    const good = join(dir, 'cli.yaml');
    await writeFile(good, `apiVersion: v1\nkind: Namespace\nmetadata: {name: cli}\n---\n${v1('cli')}`);
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [oops\n');
    const orphan = join(dir, 'orphan.yaml');
    await writeFile(orphan, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: o, namespace: ghost}\n');
    const flags = ['--kubeconfig', server.kubeconfigPath!];
    // Independent runs, started together: each CLI start costs a TypeScript compile.
    const ok = runCli(['apply', '-f', good, '-n', 'cli', ...flags]);
    const broken = runCli(['apply', '-f', bad, ...flags]);
    const missing = runCli(['apply', '-f', join(dir, 'nope.yaml'), ...flags]);
    const failed = runCli(['apply', '-f', orphan, ...flags]);

    expect(await ok.exit, ok.stderr()).toBe(0);
    expect(ok.stdout()).toBe('namespace/cli created\ndeployment.apps/web created\nconfigmap/cfg created\n');
    expect(await broken.exit).toBe(1);
    expect(broken.stderr()).toMatch(/^error: .*bad\.yaml: invalid YAML: line \d+: [^\n]+\n$/);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr()).toBe(`error: the path "${join(dir, 'nope.yaml')}" does not exist\n`);
    expect(await failed.exit).toBe(1);
    expect(failed.stderr()).toBe(
      `Error from server (NotFound): error when creating "${orphan}": namespaces "ghost" not found\n`,
    );
  });
});
