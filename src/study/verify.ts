/**
 * The proof that no event was missed: after the churn stops, every watcher's
 * cache is compared, by key and resourceVersion, with its selection listed
 * directly from the server (`spec.nodeName=node-i` for a kubelet-like
 * watcher). Those lists are read "not older than" a consistent list of the
 * whole namespace taken first, and each is also checked against that
 * consistent list filtered here: the server's selection is not taken on
 * trust either. (Consistent lists per watcher would be the same proof at
 * ten times the cost: each reads every pod from the store.) A watcher
 * caught mid-relist gets a moment and is compared again; what still differs
 * at the deadline is counted as missed.
 */
import type { KubeClient } from '../client/client.js';
import { objectKey } from '../client/informer/informer.js';
import { resourceVersionOf } from '../client/watch/listwatch.js';
import type { KubeObject } from '../protocol/events.js';
import { STUDY_NAMESPACE } from './cluster.js';
import type { FleetMember } from './fleet.js';

/** What the comparison found. */
export interface VerifyResult {
  /** Watchers compared, and objects their selections hold on the server. */
  watchers: number;
  objects: number;
  /** Objects the server has and a cache lacks, caches hold that the server deleted, or hold at another resourceVersion. */
  missing: number;
  extra: number;
  stale: number;
  /** Watchers whose cache still differed at the deadline. */
  mismatchedWatchers: number;
  /** Selections whose direct list differed from the consistent list filtered here (a server bug if not 0). */
  serverDisagreements: number;
  /** Comparison rounds needed (1 when every cache matched at once). */
  rounds: number;
}

interface Diff {
  objects: number;
  missing: number;
  extra: number;
  stale: number;
  serverDisagrees: boolean;
}

type Versions = Map<string, string | undefined>;

function versions(objects: KubeObject[]): Versions {
  return new Map(objects.map((o) => [objectKey(o), resourceVersionOf(o)]));
}

function sameVersions(a: Versions, b: Versions): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** The consistent list split by each grouping the watchers use, each split made on first use. */
class Truth {
  readonly items: KubeObject[];
  private readonly splits = new Map<FleetMember['spec']['groupOf'], Map<string | undefined, KubeObject[]>>();

  constructor(items: KubeObject[]) {
    this.items = items;
  }

  /** The pods `spec` selects, by its own reading of the selection. */
  selectedBy(spec: FleetMember['spec']): KubeObject[] {
    let split = this.splits.get(spec.groupOf);
    if (!split) {
      split = new Map();
      for (const pod of this.items) {
        const g = spec.groupOf(pod);
        const list = split.get(g);
        if (list) list.push(pod);
        else split.set(g, [pod]);
      }
      this.splits.set(spec.groupOf, split);
    }
    return split.get(spec.group) ?? [];
  }
}

async function compare(kube: KubeClient, m: FleetMember, truth: Truth, rv: string): Promise<Diff> {
  const { labelSelector, fieldSelector } = m.spec.selection;
  const direct = await kube
    .resource('pods', STUDY_NAMESPACE)
    .list({ labelSelector, fieldSelector, resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' });
  const want = versions(direct.items);
  const have = versions(m.informer.list());
  const d: Diff = {
    objects: want.size,
    missing: 0,
    extra: 0,
    stale: 0,
    serverDisagrees: !sameVersions(want, versions(truth.selectedBy(m.spec))),
  };
  for (const [key, version] of want) {
    const mine = have.get(key);
    if (mine === undefined) d.missing++;
    else if (mine !== version) d.stale++;
  }
  for (const key of have.keys()) if (!want.has(key)) d.extra++;
  return d;
}

/**
 * Compares every member's cache with the server, `concurrency` lists at a
 * time, re-checking mismatched watchers every `retryMs` until `deadlineMs`.
 */
export async function verifyCaches(
  kube: KubeClient,
  members: FleetMember[],
  opts: { deadlineMs: number; retryMs: number; concurrency?: number },
): Promise<VerifyResult> {
  const until = performance.now() + opts.deadlineMs;
  let rounds = 0;
  let pending = members;
  const diffs = new Map<FleetMember, Diff>();
  for (;;) {
    rounds++;
    // No resourceVersion: a consistent read, the store's current truth.
    const list = await kube.resource('pods', STUDY_NAMESPACE).list();
    const rv = list.metadata.resourceVersion ?? '';
    const truth = new Truth(list.items);
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const m = pending[next++];
        diffs.set(m, await compare(kube, m, truth, rv));
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency ?? 16 }, worker));
    pending = pending.filter((m) => {
      const d = diffs.get(m)!;
      return d.missing + d.extra + d.stale > 0;
    });
    if (pending.length === 0 || performance.now() + opts.retryMs > until) break;
    await new Promise((r) => setTimeout(r, opts.retryMs));
  }
  const all = [...diffs.values()];
  const sum = (f: (d: Diff) => number) => all.reduce((n, d) => n + f(d), 0);
  return {
    watchers: members.length,
    objects: sum((d) => d.objects),
    missing: sum((d) => d.missing),
    extra: sum((d) => d.extra),
    stale: sum((d) => d.stale),
    mismatchedWatchers: pending.length,
    serverDisagreements: sum((d) => (d.serverDisagrees ? 1 : 0)),
    rounds,
  };
}
