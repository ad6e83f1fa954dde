import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { MemoryStore } from '../../../src/server/stores/memory.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { waitUntil } from '../../helpers/wait.js';
import { useKubectlServer } from '../kubectl/fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const MERGE = { 'content-type': 'application/merge-patch+json' };
let counter = 0;

/** The five conditions without their lastTransitionTime, by type. */
async function conditions(
  server: RunningServer,
  ns: string,
): Promise<Record<string, [string, string, string]>> {
  const got = await call(server, 'GET', `/api/v1/namespaces/${ns}`);
  const out: Record<string, [string, string, string]> = {};
  for (const c of got.body.status?.conditions ?? []) {
    expect(c.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    out[c.type] = [c.status, c.reason, c.message];
  }
  return out;
}

const ALL_CLEAR = {
  NamespaceDeletionDiscoveryFailure: [
    'False',
    'ResourcesDiscovered',
    'All resources successfully discovered',
  ],
  NamespaceDeletionGroupVersionParsingFailure: [
    'False',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  NamespaceDeletionContentFailure: [
    'False',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  NamespaceContentRemaining: ['False', 'ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: [
    'False',
    'ContentHasNoFinalizers',
    'All content-preserving finalizers finished',
  ],
};

function configMap(name: string, finalizers?: string[]) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers } };
}

async function create(server: RunningServer, path: string, body: unknown): Promise<void> {
  const r = await call(server, 'POST', path, { body });
  expect(r.status, r.text).toBe(201);
}

async function unhold(server: RunningServer, path: string): Promise<void> {
  const r = await call(server, 'PATCH', path, { body: { metadata: { finalizers: null } }, headers: MERGE });
  expect(r.status, r.text).toBe(200);
}

const gone = (server: RunningServer, path: string) => async () =>
  (await call(server, 'GET', path)).status === 404;

describe('a Terminating namespace', () => {
  it('held by objects with finalizers, says which in its conditions, and goes when they go', async () => {
    const ns = `lc${++counter}`;
    await ensureNamespace(s, ns);
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    await create(s, cms, configMap('a', ['example.com/x']));
    await create(s, cms, configMap('b', ['example.com/x', 'example.com/y']));
    await create(s, cms, configMap('plain'));
    await create(s, `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web', finalizers: ['example.com/y'] },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    const r = await call(s, 'DELETE', `/api/v1/namespaces/${ns}`);
    expect(r.status, r.text).toBe(200);
    const expected = {
      ...ALL_CLEAR,
      NamespaceContentRemaining: [
        'True',
        'SomeResourcesRemain',
        'Some resources are remaining: configmaps. has 2 resource instances, deployments.apps has 1 resource instances',
      ],
      NamespaceFinalizersRemaining: [
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/x in 2 resource instances, example.com/y in 2 resource instances',
      ],
    };
    await waitUntil(
      async () => (await conditions(s, ns)).NamespaceContentRemaining !== undefined,
      'conditions',
    );
    expect(await conditions(s, ns)).toEqual(expected);
    const body = (await call(s, 'GET', `/api/v1/namespaces/${ns}`)).body;
    expect(body.status.phase).toBe('Terminating');
    expect(body.spec).toEqual({ finalizers: ['kubernetes'] });
    expect((await call(s, 'GET', `${cms}/plain`)).status).toBe(404);
    // The conditions are in the order the controller adds them.
    expect(body.status.conditions.map((c: { type: string }) => c.type)).toEqual(Object.keys(ALL_CLEAR));

    await unhold(s, `${cms}/a`);
    await waitUntil(
      async () => (await conditions(s, ns)).NamespaceContentRemaining?.[2].includes('configmaps. has 1 '),
      'the counts to follow',
    );
    expect((await conditions(s, ns)).NamespaceFinalizersRemaining[2]).toBe(
      'Some content in the namespace has finalizers remaining: example.com/x in 1 resource instances, example.com/y in 2 resource instances',
    );
    await unhold(s, `${cms}/b`);
    await unhold(s, `/apis/apps/v1/namespaces/${ns}/deployments/web`);
    await waitUntil(gone(s, `/api/v1/namespaces/${ns}`), `namespace ${ns} gone`);
  });

  it('a namespace left Terminating by a stopped server is finished by the next one over the same store', async () => {
    const store = new MemoryStore();
    const first = await startTestServer({ store });
    const ns = `lc${++counter}`;
    try {
      await ensureNamespace(first, ns);
      await create(first, `/api/v1/namespaces/${ns}/configmaps`, configMap('held', ['example.com/x']));
      expect((await call(first, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      await waitUntil(
        async () => (await conditions(first, ns)).NamespaceFinalizersRemaining?.[0] === 'True',
        'the namespace held by its finalizer',
      );
    } finally {
      await first.close();
    }
    const second = await startTestServer({ store });
    try {
      // Only the finalizer goes: the new server must know by itself that the namespace is Terminating.
      await unhold(second, `/api/v1/namespaces/${ns}/configmaps/held`);
      await waitUntil(gone(second, `/api/v1/namespaces/${ns}`), `namespace ${ns} gone`);
    } finally {
      await second.close();
    }
  });

  it('spec.finalizers change only through /finalize, which takes only PUT', async () => {
    const ns = `lc${++counter}`;
    await ensureNamespace(s, ns);
    const path = `/api/v1/namespaces/${ns}`;
    const current = (await call(s, 'GET', path)).body;
    const put = await call(s, 'PUT', path, {
      body: { ...current, metadata: { ...current.metadata, labels: { a: 'b' } }, spec: { finalizers: [] } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(put.body.metadata.labels.a).toBe('b');
    expect((await call(s, 'GET', `${path}/finalize`)).status).toBe(405);
    const patch = await call(s, 'PATCH', `${path}/finalize`, {
      body: { spec: { finalizers: [] } },
      headers: MERGE,
    });
    expect(patch.status).toBe(405);
    const fin = await call(s, 'PUT', `${path}/finalize`, { body: { ...put.body, spec: { finalizers: [] } } });
    expect(fin.status, fin.text).toBe(200);
    expect(fin.body.spec).toEqual({});
  });

  it('an empty one is released at once, after the controller wrote its all-clear conditions', async () => {
    const ns = `lc${++counter}`;
    await ensureNamespace(s, ns);
    const w = await watch(s, `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D${ns}`);
    try {
      expect((await w.next()).type).toBe('ADDED');
      expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      const last = await w.until((e) => e.type === 'DELETED');
      const seen = w.events.slice(1).map((e) => e.type);
      expect(seen).toEqual(['MODIFIED', 'MODIFIED', 'DELETED']);
      const withConditions = w.events[2].object as { status: { phase: string; conditions: unknown[] } };
      expect(withConditions.status.phase).toBe('Terminating');
      expect(withConditions.status.conditions).toHaveLength(5);
      expect(last.object.metadata?.name).toBe(ns);
    } finally {
      w.close();
    }
  });

  it('deletes pods first: while a pod remains, nothing else goes (1.33 reports no totals then)', async () => {
    const ns = `lc${++counter}`;
    await ensureNamespace(s, ns);
    const held = pod('held');
    (held.metadata as Record<string, unknown>).finalizers = ['example.com/pod'];
    await create(s, `/api/v1/namespaces/${ns}/pods`, held);
    await create(s, `/api/v1/namespaces/${ns}/configmaps`, configMap('cm'));
    expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    await waitUntil(async () => Object.keys(await conditions(s, ns)).length === 5, 'conditions');
    // kube-controller-manager 1.33 updates the conditions without the content totals when it
    // stops at remaining pods (kubernetes issue #138208): all five read as clear.
    expect(await conditions(s, ns)).toEqual(ALL_CLEAR);
    const cm = await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/cm`);
    expect(cm.status).toBe(200);
    expect(cm.body.metadata.deletionTimestamp).toBeUndefined();
    const p = await call(s, 'GET', `/api/v1/namespaces/${ns}/pods/held`);
    expect(p.body.metadata.deletionTimestamp).toBeTruthy();

    await unhold(s, `/api/v1/namespaces/${ns}/pods/held`);
    await waitUntil(gone(s, `/api/v1/namespaces/${ns}`), `namespace ${ns} gone`);
    expect((await call(s, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).body.items).toEqual([]);
  });

  it('held also by a metadata finalizer, it stays once emptied, and goes with that finalizer', async () => {
    const ns = `lc${++counter}`;
    await ensureNamespace(s, ns);
    await call(s, 'PATCH', `/api/v1/namespaces/${ns}`, {
      body: { metadata: { finalizers: ['example.com/ns'] } },
      headers: MERGE,
    });
    expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    await waitUntil(
      async () => (await call(s, 'GET', `/api/v1/namespaces/${ns}`)).body.spec?.finalizers === undefined,
      'the kubernetes finalizer removed',
    );
    const held = (await call(s, 'GET', `/api/v1/namespaces/${ns}`)).body;
    expect(held.metadata.finalizers).toEqual(['example.com/ns']);
    expect(held.status.phase).toBe('Terminating');
    await unhold(s, `/api/v1/namespaces/${ns}`);
    await waitUntil(gone(s, `/api/v1/namespaces/${ns}`), `namespace ${ns} gone`);
  });
});

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('kubectl describe', () => {
  const env = useKubectlServer(kubectls[0], 'stuck');

  it('kubectl describe ns shows why a namespace is stuck', async () => {
    await ensureNamespace(env.server, 'stuck');
    await create(env.server, '/api/v1/namespaces/stuck/configmaps', configMap('held', ['example.com/x']));
    const del = await env.kubectl.run(['delete', 'ns', 'stuck', '--wait=false']);
    expect(del.code, del.stderr).toBe(0);
    expect(del.stdout).toBe('namespace "stuck" deleted\n');
    await waitUntil(
      async () => Object.keys(await conditions(env.server, 'stuck')).length === 5,
      'conditions',
    );
    const r = await env.kubectl.run(['describe', 'ns', 'stuck']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('Status:       Terminating');
    expect(lines).toContain('Conditions:');
    const row = (type: string) => lines.find((l) => l.trimStart().startsWith(`${type} `)) ?? '';
    expect(row('NamespaceContentRemaining')).toMatch(
      /^ {2}NamespaceContentRemaining +True +\S.* +SomeResourcesRemain +Some resources are remaining: configmaps\. has 1 resource instances$/,
    );
    expect(row('NamespaceFinalizersRemaining')).toMatch(
      / True +.* SomeFinalizersRemain +Some content in the namespace has finalizers remaining: example\.com\/x in 1 resource instances$/,
    );
    expect(row('NamespaceDeletionContentFailure')).toMatch(
      / False +.* ContentDeleted +All content successfully deleted, may be waiting on finalization$/,
    );
    await unhold(env.server, '/api/v1/namespaces/stuck/configmaps/held');
    await waitUntil(gone(env.server, '/api/v1/namespaces/stuck'), 'namespace stuck gone');
  });

  it('kubectl replace --raw .../finalize releases a stuck namespace, as against kube-apiserver', async () => {
    await ensureNamespace(env.server, 'forced');
    await create(env.server, '/api/v1/namespaces/forced/configmaps', configMap('held', ['example.com/x']));
    expect((await env.kubectl.run(['delete', 'ns', 'forced', '--wait=false'])).code).toBe(0);
    await waitUntil(
      async () => Object.keys(await conditions(env.server, 'forced')).length === 5,
      'conditions',
    );
    const got = await env.kubectl.run(['get', 'ns', 'forced', '-o', 'json']);
    const ns = JSON.parse(got.stdout);
    ns.spec.finalizers = [];
    const file = await env.file('forced.json', JSON.stringify(ns));
    const r = await env.kubectl.run(['replace', '--raw', '/api/v1/namespaces/forced/finalize', '-f', file]);
    expect(r.code, r.stderr).toBe(0);
    await waitUntil(gone(env.server, '/api/v1/namespaces/forced'), 'namespace forced gone');
  });
});
