/**
 * The study's cluster: one namespace of pods bound to `node-0`..`node-(N-1)`,
 * each labelled with its node's rack (1 % of the nodes) and zone (10 %), so
 * watchers of different selectivity can select them with a field or a label
 * selector, and a populate step that writes the standing pods through the API.
 */
import type { KubeClient, Selection } from '../client/client.js';
import type { KubeObject } from '../protocol/events.js';
import type { Layout } from './options.js';

/** The namespace every study pod lives in. */
export const STUDY_NAMESPACE = 'study';
/** Label carrying a pod's rack (`r-<i % racks>`). */
export const RACK_LABEL = 'watchmark.io/rack';
/** Label carrying a pod's zone (`z-<i % zones>`). */
export const ZONE_LABEL = 'watchmark.io/zone';

/** How much of the cluster a watcher selects. */
export type WatcherClass = 'node' | 'rack' | 'zone' | 'all';

/** One watcher of a run: its class, a name for reports and its selection. */
export interface WatcherSpec {
  class: WatcherClass;
  name: string;
  selection: Selection;
  /**
   * The selection evaluated here, independently of the server (the
   * verifier's cross-check): the watcher selects a pod when
   * `groupOf(pod) === group`. One `groupOf` is shared by a class's
   * watchers, so the verifier splits the pods into groups once, not once
   * per watcher (5,000 watchers x 50,000 pods is 250 million tests).
   */
  groupOf: (pod: KubeObject) => string | undefined;
  group: string;
}

const byNode = (pod: KubeObject) => (pod.spec as { nodeName?: string } | undefined)?.nodeName;
const byRack = (pod: KubeObject) => pod.metadata?.labels?.[RACK_LABEL];
const byZone = (pod: KubeObject) => pod.metadata?.labels?.[ZONE_LABEL];
const everyPod = () => 'all';

/** Node `i`'s name. */
export function nodeName(i: number): string {
  return `node-${i}`;
}

/** The pod a churn or populate step writes: bound to its node, labelled with rack and zone. */
export function podManifest(name: string, node: number, layout: Layout): KubeObject {
  return {
    metadata: {
      name,
      labels: {
        app: 'study',
        [RACK_LABEL]: `r-${node % layout.racks}`,
        [ZONE_LABEL]: `z-${node % layout.zones}`,
      },
    },
    spec: {
      nodeName: nodeName(node),
      containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }],
    },
  };
}

/** The watchers of class `cls`: `count` of them, each selecting a different node, rack or zone. */
export function watcherSpecs(cls: WatcherClass, count: number, layout: Layout): WatcherSpec[] {
  return Array.from({ length: count }, (_, i) => watcherSpec(cls, i, layout));
}

/** Watcher `i` of class `cls`. */
function watcherSpec(cls: WatcherClass, i: number, layout: Layout): WatcherSpec {
  const namespace = STUDY_NAMESPACE;
  switch (cls) {
    case 'node': {
      const node = nodeName(i);
      const selection = { namespace, fieldSelector: `spec.nodeName=${node}` };
      return { class: cls, name: node, selection, groupOf: byNode, group: node };
    }
    case 'rack': {
      const rack = `r-${i % layout.racks}`;
      const selection = { namespace, labelSelector: `${RACK_LABEL}=${rack}` };
      return { class: cls, name: rack, selection, groupOf: byRack, group: rack };
    }
    case 'zone': {
      const zone = `z-${i % layout.zones}`;
      const selection = { namespace, labelSelector: `${ZONE_LABEL}=${zone}` };
      return { class: cls, name: zone, selection, groupOf: byZone, group: zone };
    }
    case 'all':
      return { class: cls, name: `all-${i}`, selection: { namespace }, groupOf: everyPod, group: 'all' };
  }
}

/** The share of the cluster's pods (and so of the churn) one watcher of `cls` sees. */
export function shareOf(cls: WatcherClass, layout: Layout): number {
  switch (cls) {
    case 'node':
      return 1 / layout.nodes;
    case 'rack':
      return 1 / layout.racks;
    case 'zone':
      return 1 / layout.zones;
    case 'all':
      return 1;
  }
}

/** The standing pods' names on node `node`: `p-<node>-<k>`. */
export function standingPodName(node: number, k: number): string {
  return `p-${node}-${k}`;
}

/**
 * Creates the namespace and `podsPerNode` pods on every node, `concurrency`
 * writes at a time; `onProgress` gets the number created so far.
 */
export async function populate(
  kube: KubeClient,
  layout: Layout,
  podsPerNode: number,
  onProgress?: (created: number) => void,
  concurrency = 16,
): Promise<number> {
  await kube.resource('namespaces').create({ metadata: { name: STUDY_NAMESPACE } });
  const pods = kube.resource('pods', STUDY_NAMESPACE);
  const total = layout.nodes * podsPerNode;
  let next = 0;
  let created = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const node = i % layout.nodes;
      await pods.create(podManifest(standingPodName(node, Math.floor(i / layout.nodes)), node, layout));
      created++;
      if (created % 1000 === 0) onProgress?.(created);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return created;
}
