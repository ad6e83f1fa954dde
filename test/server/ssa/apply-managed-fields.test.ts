import { describe, expect, it } from 'vitest';
import { managerOrUserAgent } from '../../../src/server/ssa/index.js';
import { deployment } from './schema-fixture.js';
import { apply, cm, dep, mergePatch, type Obj, T1, T2, T3, update } from './write-helpers.js';

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
