import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { matchesFields, parseFieldSelector } from '../../src/protocol/fields.js';
import { matchesLabels, parseLabelSelector } from '../../src/protocol/labels.js';
import { podManifest, type WatcherClass, watcherSpecs } from '../../src/study/cluster.js';
import type { Layout } from '../../src/study/options.js';

const layout: Layout = { nodes: 30, racks: 3, zones: 2 };
const pods: KubeObject[] = Array.from({ length: 90 }, (_, i) =>
  podManifest(`p-${i}`, i % layout.nodes, layout),
);

/** The selection as the protocol's own selector code reads it. */
function selectedByProtocol(selection: { labelSelector?: string; fieldSelector?: string }, pod: KubeObject) {
  const fields = parseFieldSelector(selection.fieldSelector ?? '');
  const labels = parseLabelSelector(selection.labelSelector ?? '');
  const field = (f: string) =>
    f === 'spec.nodeName' ? (pod.spec as { nodeName: string }).nodeName : undefined;
  return matchesFields(fields, field) && matchesLabels(labels, pod.metadata?.labels ?? {});
}

describe('watcherSpecs: the verifier reads each selection as the server does', () => {
  it.each<[WatcherClass, number, number]>([
    ['node', 30, 3],
    ['rack', 3, 30],
    ['zone', 2, 45],
    ['all', 2, 90],
  ])('%s watchers (%i of them) each select %i pods, the same ones as their selectors', (cls, count, each) => {
    const specs = watcherSpecs(cls, count, layout);
    for (const spec of specs) {
      const mine = pods.filter((p) => spec.groupOf(p) === spec.group);
      const protocol = pods.filter((p) => selectedByProtocol(spec.selection, p));
      expect(mine.map((p) => p.metadata?.name)).toEqual(protocol.map((p) => p.metadata?.name));
      expect(mine).toHaveLength(each);
    }
    // A class's watchers share one grouping: the verifier splits the pods once per class.
    expect(new Set(specs.map((s) => s.groupOf)).size).toBe(1);
  });
});
