import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../src/protocol/status.js';
import { deployment } from './schema-fixture.js';
import { apply, cm, conflictOf, dep, mergePatch, type Obj, T1, T2, T3, update } from './write-helpers.js';

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

  it("an entry not in smd's own form (keys out of order) is decoded and conflicts the same", () => {
    const live = created();
    const entry = live.metadata.managedFields[0];
    const reordered = Object.fromEntries(Object.entries(entry.fieldsV1 as Obj).reverse());
    const odd = {
      ...live,
      metadata: { ...live.metadata, managedFields: [{ ...entry, fieldsV1: reordered }] },
    };
    const err = conflictOf(() =>
      apply({ ...dep, live: odd, config: deployment({ replicas: 5 }), manager: 'a', force: false, now: T2 }),
    );
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
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
