/**
 * The simulated cluster the benchmark watches: nodes are only names
 * (`node-<i>`, no Node objects), each with a few pre-created pods, and one
 * kubelet-like watch per node plus a few namespace-wide watches (the
 * controllers' informers).
 */
import type { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { buildPod } from '../../src/sim/index.js';
import { forEachBounded, httpExpect } from '../../support/http.js';
import type { WatchFleet } from './watch-fleet.js';
import type { PodTarget } from './writer.js';

/** The name of node `i`. */
export function nodeName(i: number): string {
  return `node-${i}`;
}

/** Runs `work` while printing `done/total` every 5 s, so a long setup never looks hung. */
async function withProgress<T>(
  say: (line: string) => void,
  what: string,
  total: number,
  work: (tick: () => void) => Promise<T>,
): Promise<T> {
  let done = 0;
  const timer = setInterval(() => say(`  ... ${done}/${total} ${what}`), 5000);
  try {
    return await work(() => done++);
  } finally {
    clearInterval(timer);
  }
}

/**
 * Creates the namespace and `perNode` pods on each of `nodes` nodes. The
 * pods come back ordered pod-major (every node's first pod, then every
 * node's second...), so a writer cycling through them spreads its writes
 * over all nodes.
 */
export async function createPods(
  agent: Agent,
  baseUrl: string,
  namespace: string,
  nodes: number,
  perNode: number,
  say: (line: string) => void,
): Promise<PodTarget[]> {
  const pods: PodTarget[] = [];
  for (let k = 0; k < perNode; k++)
    for (let n = 0; n < nodes; n++) pods.push({ name: `pod-${n}-${k}`, node: n });
  await httpExpect(agent, baseUrl, 'POST', '/api/v1/namespaces', [201], {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  await withProgress(say, 'pods created', pods.length, (tick) =>
    forEachBounded(pods.length, 32, async (i) => {
      const pod = pods[i];
      await httpExpect(
        agent,
        baseUrl,
        'POST',
        `/api/v1/namespaces/${namespace}/pods`,
        [201],
        buildPod(pod.name, {
          namespace,
          labels: { app: 'fanout-bench' },
          nodeName: nodeName(pod.node),
          container: 'app',
        }),
      );
      tick();
    }),
  );
  return pods;
}

/** What opening the watches gave. */
export interface OpenedWatches {
  /** `watched[i]` is 1 when node i's watch is open. */
  watched: Uint8Array;
  failures: number;
  firstError: string | undefined;
  elapsedMs: number;
}

/**
 * Opens one `spec.nodeName` watch per node (over all namespaces, as a
 * kubelet does) and `namespaceWatchers` watches of the whole namespace, all
 * with bookmarks, resuming from a list's resourceVersion as a reflector does
 * after its initial list. A watch that fails to open is counted, not fatal.
 */
export async function openWatches(
  fleet: WatchFleet,
  agent: Agent,
  baseUrl: string,
  namespace: string,
  nodes: number,
  namespaceWatchers: number,
  concurrency: number,
  say: (line: string) => void,
): Promise<OpenedWatches> {
  const listed = await httpExpect(
    agent,
    baseUrl,
    'GET',
    `/api/v1/namespaces/${namespace}/pods?limit=1`,
    [200],
  );
  const rv = (JSON.parse(listed.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const opened: OpenedWatches = {
    watched: new Uint8Array(nodes),
    failures: 0,
    firstError: undefined,
    elapsedMs: 0,
  };
  const start = performance.now();
  const total = nodes + namespaceWatchers;
  await withProgress(say, 'watches answered', total, (tick) =>
    forEachBounded(total, concurrency, async (i) => {
      // A reflector's random 5-10 min timeout: no watch ends during the run.
      const timeout = 300 + Math.floor(Math.random() * 300);
      const common = `watch=true&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=${timeout}`;
      try {
        if (i < nodes) {
          const selector = encodeURIComponent(`spec.nodeName=${nodeName(i)}`);
          await fleet.openWatch(`/api/v1/pods?${common}&fieldSelector=${selector}`, 'node');
          opened.watched[i] = 1;
        } else {
          await fleet.openWatch(`/api/v1/namespaces/${namespace}/pods?${common}`, 'namespace');
        }
      } catch (err) {
        opened.failures++;
        opened.firstError ??= (err as Error).message;
      } finally {
        tick();
      }
    }),
  );
  opened.elapsedMs = performance.now() - start;
  return opened;
}
