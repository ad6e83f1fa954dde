import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { createThreeWayMergePatch } from '../../../src/protocol/patch/threeway.js';
import { StatusError } from '../../../src/protocol/status.js';
import { LAST_APPLIED, live, manifest, type Obj, withLastApplied } from './threeway-fixture.js';

describe('createThreeWayMergePatch', () => {
  it('produces kubectl apply’s body for replicas 1→2 and nginx:1→nginx:1.1 (§5)', () => {
    const original = manifest(1, 'nginx:1');
    const next = manifest(2, 'nginx:1.1');
    const modified = withLastApplied(next);
    const current = live(original);
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual(
      JSON.parse(
        `{"metadata":{"annotations":{"${LAST_APPLIED}":${JSON.stringify(JSON.stringify(next) + '\n')}}},` +
          '"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"image":"nginx:1.1","name":"c"}]}}}}',
      ),
    );

    // Applying it to the live object gives the manifest on top of the live object.
    const expected = live(original) as Obj & {
      metadata: Obj;
      spec: Obj & { template: { spec: { containers: Obj[] } } };
    };
    expected.metadata.annotations = (modified.metadata as Obj).annotations;
    expected.spec.replicas = 2;
    expected.spec.template.spec.containers[0].image = 'nginx:1.1';
    expect(applyStrategicMergePatch(current, patch, 'Deployment')).toEqual(expected);
  });

  it('is {} when nothing changed, and ignores fields others added', () => {
    const original = manifest(1, 'nginx:1');
    const current = live(original);
    ((current.metadata as Obj).labels as unknown) = { 'added-by': 'someone-else' };
    expect(createThreeWayMergePatch(original, withLastApplied(original), current, 'Deployment')).toEqual({});
  });

  it('deletes what was applied before and is gone now: "labels":null, "env":null, {"$patch":"delete","name":"d"}', () => {
    const original = manifest(1, 'nginx:1') as Obj & {
      metadata: Obj;
      spec: { template: { spec: { containers: Obj[] } } };
    };
    original.metadata.labels = { app: 'web' };
    original.spec.template.spec.containers = [
      { image: 'nginx:1', name: 'c', env: [{ name: 'A', value: '1' }] },
      { image: 'busybox', name: 'd' },
    ];
    const current = live(original);
    const modified = manifest(1, 'nginx:1');
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual({
      metadata: { labels: null },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'c' }],
            containers: [
              { name: 'c', env: null },
              { name: 'd', $patch: 'delete' },
            ],
          },
        },
      },
    });
    const result = applyStrategicMergePatch(current, patch, 'Deployment') as Obj & {
      metadata: Obj;
      spec: { template: { spec: { containers: Obj[] } } };
    };
    expect(result.metadata.labels).toBeUndefined();
    expect(result.spec.template.spec.containers).toEqual([
      {
        image: 'nginx:1',
        name: 'c',
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
      },
    ]);
  });

  it('adds a container with $setElementOrder and keeps the modified order on apply', () => {
    const original = manifest(1, 'nginx:1');
    const next = manifest(1, 'nginx:1') as Obj & { spec: { template: { spec: { containers: Obj[] } } } };
    next.spec.template.spec.containers = [
      { image: 'side', name: 'a' },
      ...next.spec.template.spec.containers,
    ];
    const current = live(original);
    const patch = createThreeWayMergePatch(original, next, current, 'Deployment');
    expect((patch.spec as { template: { spec: Obj } }).template.spec).toEqual({
      '$setElementOrder/containers': [{ name: 'a' }, { name: 'c' }],
      containers: [{ image: 'side', name: 'a' }],
    });
    const result = applyStrategicMergePatch(current, patch, 'Deployment') as typeof next;
    expect(result.spec.template.spec.containers.map((c) => c.name)).toEqual(['a', 'c']);
  });

  it('uses $deleteFromPrimitiveList and $setElementOrder for finalizers', () => {
    const original = { metadata: { name: 'x', finalizers: ['a'] } };
    const modified = { metadata: { name: 'x', finalizers: ['b'] } };
    const current = { metadata: { name: 'x', finalizers: ['a', 'x'] } };
    const patch = createThreeWayMergePatch(original, modified, current, 'ConfigMap');
    expect(patch).toEqual({
      metadata: {
        '$deleteFromPrimitiveList/finalizers': ['a'],
        '$setElementOrder/finalizers': ['b'],
        finalizers: ['b'],
      },
    });
    expect(applyStrategicMergePatch(current, patch, 'ConfigMap')).toEqual({
      metadata: { name: 'x', finalizers: ['b', 'x'] },
    });
  });

  it('sends $retainKeys for Deployment spec.strategy so a switch to Recreate drops rollingUpdate', () => {
    const original = manifest(1, 'nginx:1');
    const next = manifest(1, 'nginx:1') as Obj & { spec: Obj };
    next.spec.strategy = { type: 'Recreate' };
    const current = live(original);
    const patch = createThreeWayMergePatch(original, next, current, 'Deployment');
    expect((patch.spec as Obj).strategy).toEqual({ $retainKeys: ['type'], type: 'Recreate' });
    const result = applyStrategicMergePatch(current, patch, 'Deployment') as { spec: Obj };
    expect(result.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('replaces lists without a merge key and handles unknown kinds like JSON merge patch', () => {
    const original = { spec: { tolerations: [{ key: 'a' }], items: [1] } };
    const modified = { spec: { tolerations: [{ key: 'b' }], items: [1, 2] } };
    expect(createThreeWayMergePatch(original, modified, original, 'Pod')).toEqual({
      spec: { tolerations: [{ key: 'b' }], items: [1, 2] },
    });
    expect(createThreeWayMergePatch({ a: 1, b: 2 }, { a: 1 }, { a: 1, b: 2, c: 3 }, 'Widget')).toEqual({
      b: null,
    });
  });

  it('is pure and treats a missing original as {}', () => {
    const original = manifest(1, 'nginx:1');
    const modified = withLastApplied(manifest(3, 'nginx:2'));
    const current = live(original);
    const copies = structuredClone([original, modified, current]);
    const patch = createThreeWayMergePatch(undefined, modified, current, 'Deployment');
    expect([original, modified, current]).toEqual(copies);
    expect((patch.spec as Obj).replicas).toBe(3);
  });

  it('rejects documents that are not objects, and merge lists without their keys, with 400', () => {
    expect(() => createThreeWayMergePatch({}, [], {}, 'Pod')).toThrow(StatusError);
    try {
      createThreeWayMergePatch(
        {},
        { spec: { containers: [{ image: 'x' }] } },
        { spec: { containers: [{ name: 'c' }] } },
        'Pod',
      );
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).message).toContain('merge key "name"');
    }
  });
});
