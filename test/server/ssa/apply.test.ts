import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../src/protocol/status.js';
import {
  applyConfiguration,
  type ManagedFieldsEntry,
  managerOrUserAgent,
  recordUpdate,
} from '../../../src/server/ssa/index.js';
import { CONFIGMAP, DEPLOYMENT, deployment } from './schema-fixture.js';

/** The entry points, with the object typed loosely for the tests' reads. */
type Result = { object: any; managedFields: ManagedFieldsEntry[] | undefined; noop: boolean };
const apply = (a: Parameters<typeof applyConfiguration>[0]): Result => applyConfiguration(a);
const update = (a: Parameters<typeof recordUpdate>[0]): Result => recordUpdate(a);

const T1 = new Date('2026-01-01T10:00:00.250Z');
const T2 = new Date('2026-01-01T10:00:01Z');
const T3 = new Date('2026-01-01T10:00:02Z');

type Obj = Record<string, any>;

const cm = { node: CONFIGMAP, apiVersion: 'v1', kind: 'ConfigMap' };
const dep = { node: DEPLOYMENT, apiVersion: 'apps/v1', kind: 'Deployment' };

/** A JSON merge patch of `patch` onto `obj` (RFC 7386), for the update tests. */
function mergePatch(obj: unknown, patch: unknown): any {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Obj = obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? { ...(obj as Obj) } : {};
  for (const [k, v] of Object.entries(patch as Obj)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('managedFields as kube-apiserver records them', () => {
  // kubernetes test/integration/apiserver/apply/apply_test.go TestApplyManagedFields: an apply by
  // apply_test, a merge patch by updater adding data.new-key, a second changing data.key.
  it('TestApplyManagedFields: the updater takes data.key from the applier; entries sorted Apply first', () => {
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'test-cm', namespace: 'default', labels: { 'test-label': 'test' } },
      data: { key: 'value' },
    };
    let live = apply({
      ...cm,
      live: undefined,
      config,
      manager: 'apply_test',
      force: false,
      now: T1,
    }).object;
    live = { ...live, metadata: { ...live.metadata, uid: 'u1', resourceVersion: '1' } };
    live = update({
      ...cm,
      live,
      next: mergePatch(live, { data: { 'new-key': 'value' } }),
      manager: 'updater',
      now: T2,
    }).object;
    const r = update({
      ...cm,
      live,
      next: mergePatch(live, { data: { key: 'new value' } }),
      manager: 'updater',
      now: T3,
    });
    expect(r.object.data).toEqual({ key: 'new value', 'new-key': 'value' });
    expect(JSON.stringify(r.managedFields)).toBe(
      JSON.stringify([
        {
          manager: 'apply_test',
          operation: 'Apply',
          apiVersion: 'v1',
          time: '2026-01-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
        },
        {
          manager: 'updater',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2026-01-01T10:00:02Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } },
        },
      ]),
    );
  });

  // apply_test.go TestApplyRemovesEmptyManagedFields: an applier that sets only name and namespace owns nothing.
  it('TestApplyRemovesEmptyManagedFields: no entry for a manager that owns nothing', () => {
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'test-cm', namespace: 'default' },
    };
    const first = apply({
      ...cm,
      live: undefined,
      config,
      manager: 'apply_test',
      force: false,
      now: T1,
    });
    expect(first.object.metadata.managedFields).toBeUndefined();
    const second = apply({
      ...cm,
      live: first.object,
      config,
      manager: 'apply_test',
      force: false,
      now: T2,
    });
    expect(second.managedFields).toBeUndefined();
    expect(second.noop).toBe(true);
  });

  it('a create by Update owns what it set, with "." on maps it created', () => {
    const r = update({
      ...cm,
      live: undefined,
      next: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', labels: { a: '1' } },
        data: { k: 'v' },
      },
      manager: 'kubectl-create',
      now: T1,
    });
    expect(r.managedFields).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
      },
    ]);
  });

  it('a subresource write records its subresource and keeps the live entries whatever it sends', () => {
    const d = deployment() as Obj;
    const live = { ...d, metadata: { ...d.metadata, uid: 'u' } };
    const created = update({ ...dep, live: undefined, next: live, manager: 'kubectl', now: T1 }).object;
    const next = {
      ...created,
      metadata: { ...created.metadata, managedFields: [{}] },
      status: { replicas: 3 },
    };
    const r = update({
      ...dep,
      live: created,
      next,
      manager: 'kube-controller-manager',
      subresource: 'status',
      now: T2,
    });
    expect(r.managedFields?.map((e) => [e.manager, e.operation, e.subresource])).toEqual([
      ['kubectl', 'Update', undefined],
      ['kube-controller-manager', 'Update', 'status'],
    ]);
    expect(r.managedFields?.[1]?.fieldsV1).toEqual({ 'f:status': { '.': {}, 'f:replicas': {} } });
  });
});

describe('resetting and keeping managedFields on update (fieldmanager.go decodeLiveOrNew)', () => {
  const base = () => {
    const c = apply({
      ...cm,
      live: undefined,
      config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } },
      manager: 'm',
      force: false,
      now: T1,
    }).object;
    return { ...c, metadata: { ...c.metadata, uid: 'u' } };
  };

  it('[{}] and [] clear them', () => {
    for (const reset of [[{}], []]) {
      const live = base();
      const r = update({
        ...cm,
        live,
        next: { ...live, metadata: { ...live.metadata, managedFields: reset } },
        manager: 'x',
        now: T2,
      });
      expect(r.object.metadata.managedFields).toBeUndefined();
    }
  });

  it('an update without managedFields keeps the live ones; an invalid list falls back to them', () => {
    const live = base();
    const { managedFields: _, ...meta } = live.metadata;
    const r = update({ ...cm, live, next: { ...live, metadata: meta }, manager: 'x', now: T2 });
    expect(r.managedFields?.map((e) => e.manager)).toEqual(['m']);
    const bad = update({
      ...cm,
      live,
      next: { ...live, metadata: { ...meta, managedFields: [{ manager: 'z', operation: 'Nope' }] } },
      manager: 'x',
      now: T2,
    });
    expect(bad.managedFields?.map((e) => e.manager)).toEqual(['m']);
  });

  it('an existing object without managers stays untracked on update (skipnonapplied.go)', () => {
    const live = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' }, data: { a: '1' } };
    const r = update({
      ...cm,
      live,
      next: mergePatch(live, { data: { a: '2' } }),
      manager: 'x',
      now: T2,
    });
    expect(r.managedFields).toBeUndefined();
  });

  it('the first apply to an untracked object gives its other fields to before-first-apply', () => {
    const live = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', uid: 'u' },
      data: { a: '1', b: '2' },
    };
    const r = apply({
      ...cm,
      live,
      config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } },
      manager: 'm',
      force: false,
      now: T2,
    });
    expect(r.managedFields?.map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['m', 'Apply', { 'f:data': { 'f:a': {} } }],
      ['before-first-apply', 'Update', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }],
    ]);
  });
});

describe('conflicts', () => {
  function created(): Obj {
    const c = update({
      ...dep,
      live: undefined,
      next: deployment(),
      manager: 'kubectl-client-side-apply',
      now: T1,
    }).object;
    return { ...c, metadata: { ...c.metadata, uid: 'u' } };
  }

  it('one conflict: the 409 Status kube-apiserver answers', () => {
    const err = conflictOf(() =>
      apply({
        ...dep,
        live: created(),
        config: deployment({ replicas: 5 }),
        manager: 'a',
        force: false,
        now: T2,
      }),
    );
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-client-side-apply" using apps/v1',
            field: '.spec.replicas',
          },
        ],
      },
      code: 409,
    });
  });

  it('several conflicts, grouped by manager; appliers print without a version; subresources named', () => {
    let live = created();
    live = apply({
      ...dep,
      live,
      config: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', labels: { app: 'web' } },
      },
      manager: 'b',
      force: false,
      now: T2,
    }).object;
    live = update({
      ...dep,
      live,
      next: { ...live, status: { replicas: 3 } },
      manager: 'ctl',
      subresource: 'status',
      now: T2,
    }).object;
    const config = deployment({ replicas: 5, image: 'nginx:2' }) as Obj;
    config.metadata.labels = { app: 'other' };
    config.status = { replicas: 1 };
    const err = conflictOf(() => apply({ ...dep, live, config, manager: 'a', force: false, now: T3 }));
    expect(err.message).toBe(
      [
        'Apply failed with 5 conflicts: conflicts with "b":',
        '- .metadata.labels.app',
        'conflicts with "ctl" with subresource "status" using apps/v1:',
        '- .status.replicas',
        'conflicts with "kubectl-client-side-apply" using apps/v1:',
        '- .metadata.labels.app',
        '- .spec.replicas',
        '- .spec.template.spec.containers[name="nginx"].image',
      ].join('\n'),
    );
    expect(err.status.details?.causes?.map((c) => c.field)).toEqual([
      '.metadata.labels.app',
      '.status.replicas',
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.template.spec.containers[name="nginx"].image',
    ]);
  });

  it('force takes the fields; the same value shares them without conflict', () => {
    const live = created();
    const forced = apply({
      ...dep,
      live,
      config: deployment({ replicas: 5 }),
      manager: 'a',
      force: true,
      now: T2,
    });
    const byManager = Object.fromEntries((forced.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
    expect((byManager['kubectl-client-side-apply'] as any)['f:spec']['f:replicas']).toBeUndefined();
    expect((byManager.a as any)['f:spec']['f:replicas']).toEqual({});
    const shared = apply({
      ...dep,
      live,
      config: deployment(),
      manager: 'a',
      force: false,
      now: T2,
    });
    // The object is unchanged, but a new co-owner is still a write.
    expect(shared.object.spec).toEqual(live.spec);
    expect(shared.noop).toBe(false);
    expect(shared.managedFields?.map((e) => e.manager)).toEqual(['a', 'kubectl-client-side-apply']);
  });

  it('kubectl after client-side apply takes unchanged last-applied fields without conflict (lastappliedmanager.go)', () => {
    const cfg = deployment();
    const annotated = {
      ...cfg,
      metadata: {
        ...(cfg.metadata as Obj),
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(cfg) },
      },
    };
    const c = update({
      ...dep,
      live: undefined,
      next: annotated,
      manager: 'kubectl-client-side-apply',
      now: T1,
    }).object;
    const live = { ...c, metadata: { ...c.metadata, uid: 'u' } };
    const r = apply({
      ...dep,
      live,
      config: deployment({ replicas: 5 }),
      manager: 'kubectl',
      force: false,
      now: T2,
    });
    expect(r.object.spec.replicas).toBe(5);
    expect(
      JSON.parse(r.object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec
        .replicas,
    ).toBe(5);
    expect(
      r.object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'].endsWith('}\n'),
    ).toBe(true);
    // The annotation is the configuration as Go encodes it (keys sorted), and a repeat is a no-op.
    const keys = Object.keys(
      JSON.parse(r.object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']),
    );
    expect(keys).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    const again = apply({
      ...dep,
      live: r.object,
      config: deployment({ replicas: 5 }),
      manager: 'kubectl',
      force: false,
      now: T3,
    });
    expect(again.noop).toBe(true);
    // Another manager gets no such pass.
    expect(() =>
      apply({
        ...dep,
        live,
        config: deployment({ replicas: 5 }),
        manager: 'other',
        force: false,
        now: T2,
      }),
    ).toThrow(StatusError);
  });

  it('update never conflicts: the writer takes the changed field from its owner', () => {
    const live = created();
    const r = update({
      ...dep,
      live,
      next: mergePatch(live, { spec: { replicas: 7 } }),
      manager: 'kubectl-scale',
      now: T2,
    });
    const byManager = Object.fromEntries((r.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager['kubectl-scale']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect((byManager['kubectl-client-side-apply'] as any)['f:spec']['f:replicas']).toBeUndefined();
  });
});

describe('apply removes what its manager stopped applying', () => {
  const cfg = (data: Obj) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data });

  it('a field only this manager owned goes; one another manager also owns stays', () => {
    let live = apply({
      ...cm,
      live: undefined,
      config: cfg({ a: '1', b: '2', c: '3' }),
      manager: 'm',
      force: false,
      now: T1,
    }).object;
    live = apply({
      ...cm,
      live,
      config: cfg({ c: '3' }),
      manager: 'other',
      force: false,
      now: T1,
    }).object;
    const r = apply({
      ...cm,
      live,
      config: cfg({ a: '1' }),
      manager: 'm',
      force: false,
      now: T2,
    });
    expect(r.object.data).toEqual({ a: '1', c: '3' });
    // Entries of one operation are ordered by time: other applied at T1, m at T2.
    expect(r.managedFields?.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['other', { 'f:data': { 'f:c': {} } }],
      ['m', { 'f:data': { 'f:a': {} } }],
    ]);
  });

  it('a keyed item and its fields go when the applier drops it (TestApplyRemoveContainerPort)', () => {
    const live = apply({
      ...dep,
      live: undefined,
      config: deployment(),
      manager: 'apply_test',
      force: false,
      now: T1,
    }).object;
    const noPorts = deployment() as Obj;
    delete noPorts.spec.template.spec.containers[0].ports;
    const r = apply({
      ...dep,
      live,
      config: noPorts,
      manager: 'apply_test',
      force: false,
      now: T2,
    });
    expect(r.object.spec.template.spec.containers[0].ports ?? []).toEqual([]);
  });

  it('applying twice is a no-op: same object, same entries, same time', () => {
    const first = apply({
      ...dep,
      live: undefined,
      config: deployment(),
      manager: 'a',
      force: false,
      now: T1,
    });
    const second = apply({
      ...dep,
      live: first.object,
      config: deployment(),
      manager: 'a',
      force: false,
      now: T3,
    });
    expect(second.noop).toBe(true);
    expect(second.object).toEqual(first.object);
  });
});

describe('refusals', () => {
  it('a configuration with managedFields, or of another kind or version, is a 400', () => {
    const config = { ...deployment(), metadata: { name: 'web', managedFields: [] } };
    expect(
      conflictOf(() => apply({ ...dep, live: undefined, config, manager: 'a', force: false, now: T1 }))
        .status,
    ).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'metadata.managedFields must be nil',
    });
    expect(
      conflictOf(() =>
        apply({
          ...dep,
          live: undefined,
          config: { ...deployment(), apiVersion: 'extensions/v1beta1' },
          manager: 'a',
          force: false,
          now: T1,
        }),
      ).message,
    ).toBe('invalid object type: extensions/v1beta1, Kind=Deployment');
  });

  it("undecodable live managedFields fail an apply with upstream's message", () => {
    const live = {
      ...deployment(),
      metadata: { name: 'web', managedFields: [{ manager: 'x', operation: 'Apply', apiVersion: 'apps/v1' }] },
    };
    const err = conflictOf(() =>
      apply({ ...dep, live, config: deployment(), manager: 'a', force: false, now: T1 }),
    );
    expect(err.code).toBe(500);
    expect(err.reason).toBeUndefined(); // not a Status upstream: ErrorToAPIStatus leaves the reason empty
    expect(err.message).toBe('failed to decode managed fields: missing fieldsType in managed fields entry 0');
  });

  it('duplicate keys in a configuration: 500 as upstream answers', () => {
    const config = deployment() as Obj;
    config.spec.template.spec.containers.push({ name: 'nginx', image: 'x' });
    const err = conflictOf(() =>
      apply({ ...dep, live: undefined, config, manager: 'a', force: false, now: T1 }),
    );
    expect(err.code).toBe(500);
    expect(err.message).toBe(
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="nginx"]',
    );
  });
});

describe('update managers are capped at 10 (capmanagers.go)', () => {
  it('the oldest fold into ancient-changes', () => {
    let live: Obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} };
    live = update({
      ...cm,
      live: undefined,
      next: live,
      manager: 'creator',
      now: new Date(Date.UTC(2026, 0, 1, 0, 0, 0)),
    }).object;
    live.metadata.uid = 'u';
    for (let i = 0; i < 11; i++) {
      live = update({
        ...cm,
        live,
        next: mergePatch(live, { data: { [`k${i}`]: 'v' } }),
        manager: `m${i}`,
        now: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)),
      }).object;
    }
    const entries = live.metadata.managedFields as Obj[];
    expect(entries).toHaveLength(10);
    const ancient = entries.find((e) => e.manager === 'ancient-changes') as Obj;
    // The oldest (creator, owning the empty data map it created) becomes the bucket; m0 and m1 join it.
    expect(ancient.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {} } });
    expect(ancient.time).toBe('2026-01-01T00:00:02Z');
    expect(entries.some((e) => e.manager === 'creator')).toBe(false);
  });
});

describe('managerOrUserAgent (handlers/rest.go)', () => {
  it('the fieldManager query, else the User-Agent before its first /', () => {
    expect(managerOrUserAgent('mine', 'kubectl/v1.30.0')).toBe('mine');
    expect(managerOrUserAgent(undefined, 'kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b')).toBe('kubectl');
    expect(managerOrUserAgent('', '')).toBe('');
    expect(managerOrUserAgent(undefined, 'a\u0001b\tc/x')).toBe('abc');
    expect(managerOrUserAgent(undefined, 'é'.repeat(100))).toBe('é'.repeat(64));
  });

  it('an empty manager is recorded as unknown (buildmanagerinfo.go)', () => {
    const r = update({
      ...cm,
      live: undefined,
      next: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } },
      manager: '',
      now: T1,
    });
    expect(r.managedFields?.[0]?.manager).toBe('unknown');
  });
});
