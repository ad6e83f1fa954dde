/**
 * Seeding a server from manifests against a real server: files and folders
 * read as `kubectl apply -f DIR -R` reads them, CustomResourceDefinitions
 * created and waited for until their kinds are served, and seed objects
 * created Namespaces first, with errors that name the file and the object.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { KubeClient } from '../../../src/client/client.js';
import { ManifestError } from '../../../src/client/kubectl/manifest.js';
import {
  createObjects,
  installCustomResourceDefinitions,
  manifestSourceOf,
  readManifestSources,
  SeedObjectError,
} from '../../../src/client/kubectl/sources.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import type { RunningServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { startTestServer } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

const tempDir = tempDirForFile('watchmark-sources-');

async function write(path: string, text: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

const configMap = (name: string, namespace?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: namespace ? { name, namespace } : { name },
  data: { k: name },
});

describe('readManifestSources', () => {
  it('reads a folder as kubectl -f DIR -R: manifest files only, in filepath.Walk order', async () => {
    const dir = join(tempDir(), 'walk');
    await write(join(dir, 'b.yaml'), YAML.stringify(configMap('b')));
    await write(join(dir, 'a', 'z.yml'), YAML.stringify(configMap('a-z')));
    await write(join(dir, 'a.json'), JSON.stringify(configMap('a-json')));
    await write(join(dir, 'a', 'deeper', 'x.yaml'), YAML.stringify(configMap('a-deeper-x')));
    await write(join(dir, 'notes.txt'), 'not a manifest');
    await write(join(dir, 'README.md'), '# not a manifest');
    const objects = await readManifestSources([dir]);
    // Walk sorts each folder's names: "a" < "a.json" < "b.yaml", and descends "a" where it sorts.
    expect(objects.map((o) => o.metadata?.name)).toEqual(['a-deeper-x', 'a-z', 'a-json', 'b']);
    expect(manifestSourceOf(objects[0])).toBe(join(dir, 'a', 'deeper', 'x.yaml'));
  });

  it('reads a file named explicitly whatever its extension, every document, Lists flattened', async () => {
    const file = await write(
      join(tempDir(), 'seed.txt'),
      [
        YAML.stringify(configMap('one')),
        '---\n',
        YAML.stringify({ apiVersion: 'v1', kind: 'List', items: [configMap('two'), configMap('three')] }),
        '---\n',
      ].join(''),
    );
    const objects = await readManifestSources([file]);
    expect(objects.map((o) => o.metadata?.name)).toEqual(['one', 'two', 'three']);
    expect(objects.every((o) => manifestSourceOf(o) === file)).toBe(true);
  });

  it('copies objects given as such and flattens their Lists, in the order given', async () => {
    const given = configMap('given');
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', items: [configMap('l1'), configMap('l2')] };
    const file = await write(join(tempDir(), 'between.yaml'), YAML.stringify(configMap('from-file')));
    const objects = await readManifestSources([given, file, list as unknown as KubeObject]);
    expect(objects.map((o) => o.metadata?.name)).toEqual(['given', 'from-file', 'l1', 'l2']);
    objects[0].metadata!.name = 'changed';
    expect(given.metadata?.name).toBe('given');
    expect(manifestSourceOf(objects[0])).toBe('objects[0]');
    expect(manifestSourceOf(objects[3])).toBe('objects[2]');
  });

  it('a missing path is a ManifestError naming it', async () => {
    const missing = join(tempDir(), 'nowhere', 'crds');
    const err = await readManifestSources([missing]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as Error).message).toBe(`${missing}: no such file or directory`);
  });

  it('a manifest that does not parse is a ManifestError naming the file, the document and the line', async () => {
    const file = await write(
      join(tempDir(), 'broken', 'bad.yaml'),
      `${YAML.stringify(configMap('fine'))}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "unterminated\n`,
    );
    const err = await readManifestSources([join(tempDir(), 'broken')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as Error).message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: document 2: invalid YAML: line \\d+: `),
    );
  });

  it('an object given without kind is a ManifestError naming its position', async () => {
    const err = await readManifestSources([configMap('ok'), { metadata: { name: 'x' } } as KubeObject]).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as Error).message).toBe('objects[1]: object has no apiVersion, kind');
  });
});

describe('against a server', () => {
  let server: RunningServer;
  let kube: KubeClient;
  const requests: Array<{ verb: string; resource: string }> = [];
  beforeAll(async () => {
    server = await startTestServer({
      kubeconfigOut: join(tempDir(), 'kubeconfig'),
      onRequest: (r) => requests.push(r),
    });
    kube = await KubeClient.load({ kubeconfig: server.kubeconfigPath, qps: 0 });
  });
  afterAll(async () => {
    await kube?.close();
    await server?.close();
  });
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const removeCrd = (name: string) =>
    cleanups.push(() =>
      kube
        .resource('customresourcedefinitions')
        .delete(name)
        .catch(() => undefined),
    );

  it('installs definitions from a folder and returns once their kinds are served', async () => {
    const dir = join(tempDir(), 'crds-ok');
    await write(join(dir, 'widgets.yaml'), YAML.stringify(widgetCrd({ group: 'seed.example.com' })));
    await write(join(dir, 'more', 'gizmos.json'), JSON.stringify(gizmoCrd('seed.example.com')));
    removeCrd('widgets.seed.example.com');
    removeCrd('gizmos.seed.example.com');
    const crds = await readManifestSources([dir]);
    requests.length = 0;
    await installCustomResourceDefinitions(kube, crds, { timeoutMs: 10_000 });
    // The wait is one list of the definitions (then a watch, unless the list shows them all
    // Established already), never a poll of each.
    const onCrds = requests.filter((r) => r.resource === 'customresourcedefinitions').map((r) => r.verb);
    expect(onCrds.slice(0, 3)).toEqual(['create', 'create', 'list']);
    expect(onCrds.slice(3).every((v) => v === 'watch')).toBe(true);
    expect(onCrds.length).toBeLessThanOrEqual(4);
    // A client that has never read discovery resolves them at once, and they answer.
    const fresh = await KubeClient.load({ kubeconfig: server.kubeconfigPath, qps: 0 });
    try {
      const created = await fresh
        .resource('widgets.seed.example.com', 'default')
        .create(widget('w', { size: 1 }, { group: 'seed.example.com' }));
      expect((created as { spec?: { color?: string } }).spec?.color).toBe('red');
      const gizmos = await fresh.resource('gizmos.seed.example.com').list();
      expect(gizmos.items).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('refuses an object that is not a definition before creating anything', async () => {
    const objects = await readManifestSources([configMap('not-a-crd')]);
    const err = await installCustomResourceDefinitions(kube, objects).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SeedObjectError);
    expect((err as Error).message).toBe(
      'objects[0]: configmap/not-a-crd: is a ConfigMap, not a CustomResourceDefinition (seed objects go with the objects, not the CRDs)',
    );
  });

  it("a definition the server refuses fails with the server's message and the file", async () => {
    const bad = widgetCrd({ group: 'bad.example.com' });
    bad.metadata.name = 'wrong.bad.example.com';
    const file = await write(join(tempDir(), 'crds-bad', 'wrong.yaml'), YAML.stringify(bad));
    const err = await installCustomResourceDefinitions(kube, await readManifestSources([file])).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SeedObjectError);
    expect((err as Error).message).toBe(
      `${file}: customresourcedefinition/wrong.bad.example.com: CustomResourceDefinition.apiextensions.k8s.io "wrong.bad.example.com" is invalid: metadata.name: Invalid value: "wrong.bad.example.com": must be spec.names.plural+"."+spec.group`,
    );
    expect(((err as SeedObjectError).cause as { code?: number }).code).toBe(422);
  });

  it("a definition whose names are refused fails with the NamesAccepted condition's message", async () => {
    removeCrd('widgets.clash.example.com');
    removeCrd('gadgets.clash.example.com');
    await installCustomResourceDefinitions(kube, [widgetCrd({ group: 'clash.example.com' })]);
    const clash = widgetCrd({ group: 'clash.example.com' });
    clash.metadata.name = 'gadgets.clash.example.com';
    clash.spec.names = { plural: 'gadgets', singular: 'gadget', kind: 'Widget' };
    const err = await installCustomResourceDefinitions(kube, [clash]).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'customresourcedefinition "gadgets.clash.example.com" names not accepted: "WidgetList" is already in use',
    );
  });

  it('an aborted signal ends the wait', async () => {
    removeCrd('widgets.abort.example.com');
    const abort = new AbortController();
    const reason = new Error('test ended the wait');
    abort.abort(reason);
    const err = await installCustomResourceDefinitions(kube, [widgetCrd({ group: 'abort.example.com' })], {
      signal: abort.signal,
    }).catch((e: unknown) => e);
    expect(err).toBe(reason);
  });

  it('creates seed objects Namespaces first, custom kinds included, keeping a Namespace that exists', async () => {
    removeCrd('widgets.objs.example.com');
    cleanups.push(() =>
      kube
        .resource('namespaces')
        .delete('seeded')
        .catch(() => undefined),
    );
    await installCustomResourceDefinitions(kube, [widgetCrd({ group: 'objs.example.com' })]);
    const file = await write(
      join(tempDir(), 'objects', 'seed.yaml'),
      [
        widget('w1', { size: 2 }, { group: 'objs.example.com', namespace: 'seeded' }),
        configMap('settings', 'seeded'),
        configMap('in-default'),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seeded' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
      ]
        .map((o) => YAML.stringify(o))
        .join('---\n'),
    );
    const created = await createObjects(kube, await readManifestSources([file]));
    expect(created.map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)).toEqual([
      'Namespace//seeded',
      'Widget/seeded/w1',
      'ConfigMap/seeded/settings',
      'ConfigMap/default/in-default',
    ]);
    const stored = await kube.resource('widgets.objs.example.com', 'seeded').get('w1');
    expect(stored.metadata?.uid).toBe(created[1].metadata?.uid);
    cleanups.push(() => kube.resource('configmaps', 'default').delete('in-default'));
  });

  it('an object the server refuses names itself and its file', async () => {
    removeCrd('widgets.refuse.example.com');
    await installCustomResourceDefinitions(kube, [widgetCrd({ group: 'refuse.example.com' })]);
    const file = await write(
      join(tempDir(), 'objects-bad', 'widget.yaml'),
      YAML.stringify(widget('tiny', { size: 0 }, { group: 'refuse.example.com' })),
    );
    const err = await createObjects(kube, await readManifestSources([file])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SeedObjectError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: widget/default/tiny: Widget.refuse.example.com "tiny" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1$`,
      ),
    );
  });

  it('an object of a kind the server does not serve says to install its definition', async () => {
    const err = await createObjects(
      kube,
      await readManifestSources([
        {
          apiVersion: 'nowhere.example.com/v1',
          kind: 'Thing',
          metadata: { name: 't', namespace: 'default' },
        },
      ]),
    ).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'objects[0]: thing/default/t: no matches for kind "Thing" in version "nowhere.example.com/v1" (ensure CRDs are installed first)',
    );
  });
});

function gizmoCrd(group: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gizmos.${group}` },
    spec: {
      group,
      scope: 'Cluster',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}
