/**
 * What a test does through testCluster beyond the API: read the request
 * record, inject faults, take and restore snapshots, and start fast over
 * a setup an earlier cluster installed.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '../../src/index.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';

const CRDS = fileURLToPath(
  new URL('../../support/fixtures/crds/cert-manager.io_certificates.yaml', import.meta.url),
);

describe('the request record', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await testCluster({ controllers: [] });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('starts empty after the setup and records what a client did', async () => {
    expect(c.requests.all()).toEqual([]);
    const cms = c.client.resource('configmaps', 'default');
    await cms.create({ metadata: { name: 'r1' } }, { fieldManager: 'my-operator' });
    await cms.list();
    await cms.get('missing').catch(() => undefined);
    const creates = c.requests.find({ verb: 'create', resource: 'configmaps' });
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ namespace: 'default', fieldManager: 'my-operator', code: 201 });
    expect(creates[0]?.resultResourceVersion).toMatch(/^\d+$/);
    expect(c.requests.count({ verb: 'list', resource: 'configmaps' })).toBe(1);
    expect(c.requests.find({ verb: 'get', name: 'missing' })[0]?.code).toBe(404);
    expect(c.requests.count({ verb: ['create', 'list'] })).toBe(2);
    // The fixture's own waits are not the test's requests.
    await c.waitFor('configmaps', 'r1');
    expect(c.requests.count({ verb: ['list', 'watch'] })).toBe(1);
    c.requests.clear();
    expect(c.requests.count()).toBe(0);
  });
});

describe('faults as a client sees them', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await testCluster({ controllers: [] });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('failNext answers a Status, changes nothing, then lets the next request through', async () => {
    const cms = c.client.resource('configmaps', 'default');
    await cms.create({ metadata: { name: 'f1' }, data: { v: '1' } });
    const handle = c.faults.failNext({ code: 409, verb: 'patch', resource: 'configmaps', name: 'f1' });
    const err = await cms.patch('f1', { data: { v: '2' } }, 'merge').catch((e) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect(err.code).toBe(409);
    expect(handle.hits).toBe(1);
    expect((await cms.get('f1')).data).toEqual({ v: '1' });
    await cms.patch('f1', { data: { v: '2' } }, 'merge');
    expect((await cms.get('f1')).data).toEqual({ v: '2' });
  });

  it('a dropped watch and a compaction leave an informer whole', async () => {
    const inf = c.client.informer('configmaps', { namespace: 'default' });
    await inf.synced();
    try {
      const cms = c.client.resource('configmaps', 'default');
      c.faults.dropWatches();
      await cms.create({ metadata: { name: 'after-drop' } });
      await c.faults.compact();
      await cms.create({ metadata: { name: 'after-compact' } });
      c.faults.dropWatches();
      await cms.create({ metadata: { name: 'after-second-drop' } });
      await c.waitFor('configmaps', 'after-second-drop');
      await new Promise<void>((resolve) => {
        const check = () => inf.get('default/after-second-drop') && resolve();
        inf.on({ add: check, update: check });
        check();
      });
      for (const name of ['after-drop', 'after-compact', 'after-second-drop'])
        expect(inf.get(`default/${name}`), name).toBeDefined();
    } finally {
      await inf.stop();
    }
  });
});

it("leaves out the garbage collector's requests", async () => {
  const c = await testCluster();
  try {
    const cms = c.client.resource('configmaps', 'default');
    const owner = await cms.create({ metadata: { name: 'o' } });
    await cms.create({
      metadata: {
        name: 'd',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: owner.metadata!.uid! }],
      },
    });
    await cms.delete('o');
    await c.waitForDeletion('configmaps', 'd');
    // The collector deleted `d`; the record holds only the test's two creates and one delete.
    expect(c.requests.all().map((r) => `${r.verb} ${r.name ?? ''}`)).toEqual([
      'create ',
      'create ',
      'delete o',
    ]);
  } finally {
    await c.close();
  }
});

describe('snapshot and restore', () => {
  it('puts objects and resourceVersions back, and the garbage collector runs over them', async () => {
    const c = await testCluster();
    try {
      const cms = c.client.resource('configmaps', 'default');
      await cms.create({ metadata: { name: 'kept' } });
      const snap = await c.snapshot();
      const keptRv = (await cms.get('kept')).metadata?.resourceVersion;
      await cms.create({ metadata: { name: 'later' } });
      await cms.patch('kept', { data: { changed: 'yes' } }, 'merge');
      await c.restore(snap);
      expect((await cms.get('kept')).metadata?.resourceVersion).toBe(keptRv);
      await expect(cms.get('later')).rejects.toMatchObject({ code: 404 });
      const next = await cms.create({ metadata: { name: 'next' } });
      expect(Number(next.metadata?.resourceVersion)).toBe(snap.revision + 1);
      // The garbage collector came back over the restored state.
      const owner = await cms.get('kept');
      await cms.create({
        metadata: {
          name: 'owned',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'kept', uid: owner.metadata!.uid! }],
        },
      });
      await cms.delete('kept');
      await c.waitForDeletion('configmaps', 'owned');
    } finally {
      await c.close();
    }
  });

  it('a CRD installed after a snapshot is gone from discovery after restore', async () => {
    const c = await testCluster({ controllers: [] });
    try {
      const snap = await c.snapshot();
      const { installCustomResourceDefinitions, readManifestSources } = await import(
        '../../src/client/kubectl/sources.js'
      );
      await installCustomResourceDefinitions(c.client, await readManifestSources([CRDS]));
      await c.client.resource('certificates.cert-manager.io', 'default').list();
      await c.restore(snap);
      await expect(c.client.resource('certificates.cert-manager.io', 'default').list()).rejects.toThrow(
        /certificates/,
      );
    } finally {
      await c.close();
    }
  });
});

describe('a setup installed once per process', () => {
  it("a second cluster with the same CRDs starts over the first one's state, isolated from it", async () => {
    const a = await testCluster({ crds: [CRDS], controllers: [] });
    const b = await testCluster({ crds: [CRDS], controllers: [] });
    try {
      // Served at once in both; b never installed anything itself.
      await a.client.resource('certificates.cert-manager.io', 'default').list();
      await b.client.resource('certificates.cert-manager.io', 'default').list();
      expect(b.server.stats.writes).toBe(0);
      await a.client.resource('configmaps', 'default').create({ metadata: { name: 'only-a' } });
      await expect(b.client.resource('configmaps', 'default').get('only-a')).rejects.toMatchObject({
        code: 404,
      });
      const off = await testCluster({ crds: [CRDS], controllers: [], reuseSetup: false });
      expect(off.server.stats.writes).toBeGreaterThan(0);
      await off.close();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('admission hooks', () => {
  it("deny and patch writes as a webhook would, with kube-apiserver's denial message", async () => {
    const c = await testCluster({
      controllers: [],
      admission: {
        mutate: (req) =>
          req.operation === 'CREATE' && req.resource.resource === 'configmaps'
            ? { allowed: true, patch: [{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }] }
            : { allowed: true },
        validate: (req) =>
          req.name === 'forbidden'
            ? { allowed: false, status: { code: 403, message: 'not this one' } }
            : { allowed: true },
      },
    });
    try {
      const cms = c.client.resource('configmaps', 'default');
      const made = await cms.create({ metadata: { name: 'ok' } });
      expect(made.metadata?.labels).toEqual({ stamped: 'yes' });
      const err = await cms.create({ metadata: { name: 'forbidden' } }).catch((e) => e);
      expect(err.code).toBe(403);
      expect(err.message).toContain('denied the request: not this one');
      await expect(cms.get('forbidden')).rejects.toMatchObject({ code: 404 });
    } finally {
      await c.close();
    }
  });
});
