/**
 * The chaos test's checks: an informer has converged when its cache equals
 * the server's state for its selection (keys and resourceVersions), its
 * handlers describe that same state, and, when bookmarks flow, its watcher
 * has reached the server's newest resourceVersion.
 */

import {
  type Informer,
  type KubeObject,
  objectKey,
  type Selection,
  type WatcherMetrics,
} from '../../src/index.js';
import { pollUntil } from '../../src/process/index.js';
import type { HandlerHistory } from './history.js';
import type { ChaosConfig, Res } from './schedule.js';
import type { World } from './world.js';

/** One informer under test. */
export interface InformerSpec {
  name: string;
  res: Res;
  selection: Selection;
}

/** An informer under test and what watches it. */
export interface Tracked {
  spec: InformerSpec;
  informer: Informer;
  history: HandlerHistory;
  /** Handlers registered while the informer was already running, if any. */
  late?: HandlerHistory;
  /** The last few errors the watcher reported, for failure reports. */
  recentErrors: string[];
  /** The server's state for this informer's selection, as last listed. */
  truth?: { revision: number; state: Map<string, number> };
}

/** How long a seed may take to converge after its faults stop (the in-process scenarios' default). */
export const QUIESCE_MS = 10_000;

/** Whether the watchers can be expected to reach the server's newest resourceVersion (via bookmarks). */
function expectsBookmarks(config: ChaosConfig): boolean {
  return config.mode === 'bookmarks' || config.mode === 'stream';
}

/** Waits until every informer matches the server (and, with bookmarks, has its newest resourceVersion). */
export async function converge(
  world: World,
  config: ChaosConfig,
  tracked: Tracked[],
  when: string,
  quiesceMs = QUIESCE_MS,
): Promise<string[]> {
  const needRv = expectsBookmarks(config);
  const pending = new Map<Tracked, string>();
  const converged = await pollUntil(
    async () => {
      const latest = await world.latestRevision();
      pending.clear();
      for (const t of tracked) {
        const d = await divergence(world, t, needRv, latest);
        if (d) pending.set(t, d);
      }
      return pending.size === 0;
    },
    { timeoutMs: quiesceMs, intervalMs: 20 },
  );
  if (converged) return [];
  return [...pending].map(
    ([t, d]) => `${t.spec.name}: did not converge ${when} within ${quiesceMs} ms: ${d}; ${metricsLine(t)}`,
  );
}

/** Why `t` does not (yet) match the server, or undefined when it does. */
export async function divergence(
  world: World,
  t: Tracked,
  needRv: boolean,
  latest: number,
): Promise<string | undefined> {
  const rv = Number(t.informer.watcher.resourceVersion || 0);
  if (!t.informer.isSynced) return 'not synced';
  if (needRv && rv < latest) return `watcher at resourceVersion ${rv}, server at ${latest}`;
  const cache = stateOf(t.informer.list());
  // Cheap checks first; the server is listed once per revision.
  const handlerDiff = diff('cache', cache, 'handlers', t.history.snapshot());
  if (handlerDiff) return `handlers differ from the cache: ${handlerDiff}`;
  const lateDiff = t.late && diff('cache', cache, 'late handlers', t.late.snapshot());
  if (lateDiff) return `late handlers differ from the cache: ${lateDiff}`;
  if (t.truth?.revision !== latest) {
    const { namespace, allNamespaces, labelSelector, fieldSelector } = t.spec.selection;
    const client = world.truth(t.spec.res, allNamespaces ? undefined : namespace);
    const list = await client.list({ labelSelector, fieldSelector });
    t.truth = { revision: Number(list.metadata.resourceVersion), state: stateOf(list.items) };
  }
  const cacheDiff = diff('server', t.truth.state, 'cache', cache);
  if (cacheDiff) return `cache differs from the server: ${cacheDiff}${trails(t, t.truth.state, cache)}`;
  return undefined;
}

/** What the handlers were told about the first few keys on which `a` and `b` differ. */
function trails(t: Tracked, a: Map<string, number>, b: Map<string, number>): string {
  const keys = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).slice(0, 3);
  return keys.map((k) => `; handlers saw ${k}: [${t.history.trailOf(k).join(', ')}]`).join('');
}

/**
 * Whether every server's watch cache holds what the store holds at
 * `latest`: a list not older than `latest` is served from the cache, a
 * consistent list from the store. Over etcd this catches a server whose
 * cache missed or kept an event; with two servers, one that disagrees with
 * the other.
 */
export async function serverCachesMatch(
  world: World,
  resources: readonly Res[],
  latest: number,
): Promise<string[]> {
  const failures: string[] = [];
  for (const res of resources) {
    const store = stateOf((await world.truth(res).list()).items);
    for (const [i, server] of world.servers.entries()) {
      const cached = await world.truthFrom(i, res).list({
        resourceVersion: String(latest),
        resourceVersionMatch: 'NotOlderThan',
      });
      const d = diff('store', store, `${server.name}'s cache`, stateOf(cached.items));
      if (d) failures.push(`${server.name}: its watch cache of ${res} differs from the store: ${d}`);
    }
  }
  return failures;
}

function stateOf(objects: KubeObject[]): Map<string, number> {
  return new Map(objects.map((o) => [objectKey(o), Number(o.metadata?.resourceVersion)]));
}

function diff(
  aName: string,
  a: Map<string, number>,
  bName: string,
  b: Map<string, number>,
): string | undefined {
  const out: string[] = [];
  for (const [k, v] of a) {
    if (!b.has(k)) out.push(`${k}@${v} only in ${aName}`);
    else if (b.get(k) !== v) out.push(`${k} ${aName}@${v} ${bName}@${b.get(k)}`);
  }
  for (const [k, v] of b) if (!a.has(k)) out.push(`${k}@${v} only in ${bName}`);
  if (out.length === 0) return undefined;
  return out.slice(0, 8).join('; ') + (out.length > 8 ? ` (+${out.length - 8} more)` : '');
}

function metricsLine(t: Tracked): string {
  const m: WatcherMetrics = t.informer.watcher.metrics;
  return (
    `lists=${JSON.stringify(m.lists)} watches=${m.watchesStarted} ends=${JSON.stringify(m.watchEnds)} ` +
    `resumes=${m.resumes} errors=${m.errors} bookmarks=${m.bookmarks} rv=${m.resourceVersion} ` +
    `last errors: ${JSON.stringify(t.recentErrors)}`
  );
}
