import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { createThreeWayMergePatch } from '../../../src/protocol/patch/threeway.js';
import {
  containerPatch,
  live,
  manifest,
  type Obj,
  type PodTemplateManifest,
  podSpecOf,
  podSpecPatch,
  withContainer,
  withPodSpec,
} from './threeway-fixture.js';

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
