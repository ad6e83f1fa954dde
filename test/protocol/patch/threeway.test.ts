import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { createThreeWayMergePatch } from '../../../src/protocol/patch/threeway.js';
import { StatusError } from '../../../src/protocol/status.js';

type Obj = Record<string, unknown>;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manifest a user applies; `annotations: {}` as kubectl stores it in last-applied. */
function manifest(replicas: number, image: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { annotations: {}, name: 'web', namespace: 'demo' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ image, name: 'c' }] } },
    },
  };
}

/** What kubectl diffs against: the manifest carrying its own last-applied annotation. */
function withLastApplied(m: Obj): Obj {
  const copy = structuredClone(m);
  (copy.metadata as Obj).annotations = { [LAST_APPLIED]: JSON.stringify(m) + '\n' };
  return copy;
}

/** The live object after applying `m`: defaults and server fields added. */
function live(m: Obj): Obj {
  const obj = withLastApplied(m) as Obj & { metadata: Obj; spec: Obj & { template: { spec: Obj } } };
  Object.assign(obj.metadata, {
    uid: 'u1',
    resourceVersion: '12',
    generation: 1,
    creationTimestamp: '2024-01-01T00:00:00Z',
  });
  Object.assign(obj.spec, {
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 10,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  });
  Object.assign(obj.spec.template.spec, { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
  for (const c of obj.spec.template.spec.containers as Obj[]) {
    Object.assign(c, { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
  }
  obj.status = { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] };
  return obj;
}

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

type PodTemplateManifest = Obj & { metadata: Obj; spec: { template: { spec: Obj } } };

/** The manifest with these pod spec fields (containers, volumes, ...). */
function withPodSpec(fields: Obj): PodTemplateManifest {
  const m = manifest(1, 'unused') as PodTemplateManifest;
  Object.assign(m.spec.template.spec, fields);
  return m;
}

/** `{spec: {template: {spec: podSpec}}}`: a patch touching the pod spec only. */
function podSpecPatch(podSpec: Obj): Obj {
  return { spec: { template: { spec: podSpec } } };
}

/** The manifest with one container `c` of these fields. */
function withContainer(fields: Obj): PodTemplateManifest {
  return withPodSpec({ containers: [{ name: 'c', ...fields }] });
}

/** The patch changing container `c` alone, which `$setElementOrder/containers` comes with. */
function containerPatch(fields: Obj): Obj {
  return podSpecPatch({
    '$setElementOrder/containers': [{ name: 'c' }],
    containers: [{ name: 'c', ...fields }],
  });
}

function podSpecOf(obj: unknown): { containers: Obj[] } & Obj {
  return (obj as PodTemplateManifest).spec.template.spec as { containers: Obj[] } & Obj;
}

/**
 * Both halves touching the same list element: upstream's `mergeMap` combines
 * the element, so neither the deletions (original -> modified) nor the changes
 * (current -> modified) are lost. Expected patches worked out by hand from
 * k8s.io/apimachinery strategicpatch.
 */
describe('createThreeWayMergePatch combining deletions and changes', () => {
  it('removes an env var from a container whose image also changed', () => {
    const A1 = { name: 'A', value: '1' };
    const B2 = { name: 'B', value: '2' };
    const original = withContainer({ image: 'nginx:1', env: [A1, B2] });
    const current = live(original);
    const patch = createThreeWayMergePatch(
      original,
      withContainer({ image: 'nginx:2', env: [B2] }),
      current,
      'Deployment',
    );
    expect(patch).toEqual(
      containerPatch({
        image: 'nginx:2',
        '$setElementOrder/env': [{ name: 'B' }],
        env: [{ name: 'A', $patch: 'delete' }],
      }),
    );
    const [container] = podSpecOf(applyStrategicMergePatch(current, patch, 'Deployment')).containers;
    expect([container.image, container.env]).toEqual(['nginx:2', [B2]]);
  });

  it('deletes from a nested list inside a changed element when the changes touch that list too', () => {
    const original = withContainer({
      image: 'nginx:1',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '1' },
      ],
    });
    const current = live(original);
    const modified = withContainer({ image: 'nginx:1', env: [{ name: 'B', value: '2' }] });
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual(
      containerPatch({
        '$setElementOrder/env': [{ name: 'B' }],
        // The changes' element first, the deletions' after it (upstream `mergeSortedSlice`).
        env: [
          { name: 'B', value: '2' },
          { name: 'A', $patch: 'delete' },
        ],
      }),
    );
    const [container] = podSpecOf(applyStrategicMergePatch(current, patch, 'Deployment')).containers;
    expect(container.env).toEqual([{ name: 'B', value: '2' }]);
  });

  it('removes a port from a container whose other port changed', () => {
    const original = withContainer({
      image: 'nginx:1',
      ports: [
        { containerPort: 80, name: 'http' },
        { containerPort: 443, name: 'https' },
      ],
    });
    const current = live(original);
    const modified = withContainer({ image: 'nginx:1', ports: [{ containerPort: 80, name: 'web' }] });
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual(
      containerPatch({
        '$setElementOrder/ports': [{ containerPort: 80 }],
        ports: [
          { containerPort: 80, name: 'web' },
          { containerPort: 443, $patch: 'delete' },
        ],
      }),
    );
    const [container] = podSpecOf(applyStrategicMergePatch(current, patch, 'Deployment')).containers;
    expect(container.ports).toEqual([{ containerPort: 80, name: 'web' }]);
  });

  it('removes a label while another changes, in metadata and inside a merge-keyed element', () => {
    const constraint = (matchLabels: Obj) => ({
      topologyKey: 'zone',
      maxSkew: 1,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels },
    });
    const original = withPodSpec({ topologySpreadConstraints: [constraint({ app: 'web', tier: 'fe' })] });
    original.metadata.labels = { app: 'web', tier: 'fe' };
    const modified = withPodSpec({ topologySpreadConstraints: [constraint({ app: 'web2' })] });
    modified.metadata.labels = { app: 'web2' };
    const current = live(original);
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual({
      // Plain maps were already merged key by key before the fix.
      metadata: { labels: { app: 'web2', tier: null } },
      ...podSpecPatch({
        '$setElementOrder/topologySpreadConstraints': [{ topologyKey: 'zone' }],
        topologySpreadConstraints: [
          { topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web2', tier: null } } },
        ],
      }),
    });
    const result = applyStrategicMergePatch(current, patch, 'Deployment') as PodTemplateManifest;
    expect(result.metadata.labels).toEqual({ app: 'web2' });
    expect(podSpecOf(result).topologySpreadConstraints).toEqual([constraint({ app: 'web2' })]);
  });

  it('combines lists when $setElementOrder is in both halves: reordered, changed, pruned and deleted', () => {
    const original = withPodSpec({
      containers: [
        { image: 'a:1', name: 'a', env: [{ name: 'X', value: '1' }] },
        { image: 'b:1', name: 'b' },
        { image: 'c:1', name: 'c' },
      ],
    });
    const modified = withPodSpec({
      containers: [
        { image: 'c:2', name: 'c' },
        { image: 'a:2', name: 'a' },
      ],
    });
    const current = live(original);
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual(
      podSpecPatch({
        '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }],
        containers: [
          { name: 'c', image: 'c:2' },
          { name: 'a', image: 'a:2', env: null },
          { name: 'b', $patch: 'delete' },
        ],
      }),
    );
    const { containers } = podSpecOf(applyStrategicMergePatch(current, patch, 'Deployment'));
    expect(containers.map((c) => [c.name, c.image, c.env])).toEqual([
      ['c', 'c:2', undefined],
      ['a', 'a:2', undefined],
    ]);
  });

  it('keeps the manifest’s explicit nulls from the changes half, as kubectl does (creationTimestamp: null)', () => {
    // Upstream combines with MergeOptions{} (IgnoreUnmatchedNulls false): a null only the changes have is sent.
    const original = manifest(1, 'nginx:1') as PodTemplateManifest;
    const modified = manifest(1, 'nginx:2') as PodTemplateManifest & {
      spec: { template: { metadata: Obj } };
    };
    modified.spec.template.metadata.creationTimestamp = null;
    const patch = createThreeWayMergePatch(original, modified, live(original), 'Deployment');
    expect(patch).toEqual({
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: {
            '$setElementOrder/containers': [{ name: 'c' }],
            containers: [{ name: 'c', image: 'nginx:2' }],
          },
        },
      },
    });
  });

  it('keeps one $retainKeys when both halves send it for a volume that switched source', () => {
    const original = withPodSpec({ volumes: [{ name: 'v', configMap: { name: 'cm1' } }] });
    const modified = withPodSpec({ volumes: [{ name: 'v', secret: { secretName: 's' } }] });
    const current = live(original);
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual(
      podSpecPatch({
        '$setElementOrder/volumes': [{ name: 'v' }],
        volumes: [
          { name: 'v', configMap: null, secret: { secretName: 's' }, $retainKeys: ['name', 'secret'] },
        ],
      }),
    );
    expect(podSpecOf(applyStrategicMergePatch(current, patch, 'Deployment')).volumes).toEqual([
      { name: 'v', secret: { secretName: 's' } },
    ]);
  });
});
