/**
 * The end of `watchmark demo`: the counters that show what bookmarks bought,
 * side by side with a watcher that had none, and a check of the events shown
 * against the server's own list.
 */
import type { KubeClient } from '../client/client.js';
import { type CoreEvent, occurrenceKey } from '../client/rollout/events.js';
import type { FollowedEvent } from '../client/rollout/follow.js';
import type { WatcherMetrics } from '../client/watch/metrics.js';

/** Lists (initial + relists), bookmarks and resumes of a set of watchers, summed. */
export interface WatchTotals {
  watchers: number;
  initialLists: number;
  relists: number;
  bookmarks: number;
  resumes: number;
  /** Watches refused with 410 Expired (or ended by one). */
  expired: number;
  lastResourceVersion: string;
}

/** Sums watcher metrics. */
export function totals(metrics: WatcherMetrics[]): WatchTotals {
  const t: WatchTotals = {
    watchers: metrics.length,
    initialLists: 0,
    relists: 0,
    bookmarks: 0,
    resumes: 0,
    expired: 0,
    lastResourceVersion: '',
  };
  for (const m of metrics) {
    t.initialLists += m.lists.initial;
    t.relists += m.lists.expired + m.lists.tooLarge + m.lists.error;
    t.bookmarks += m.bookmarks;
    t.resumes += m.resumes;
    t.expired += m.lists.expired;
    if (Number(m.resourceVersion) > Number(t.lastResourceVersion || 0))
      t.lastResourceVersion = m.resourceVersion;
  }
  return t;
}

/** One summary row: `lists 4 (relists 0), bookmarks 23, resumes 4, 410s 0`. */
export function describeTotals(t: WatchTotals): string {
  return `lists ${t.initialLists + t.relists} (relists ${t.relists}), bookmarks ${t.bookmarks}, resumes ${t.resumes}, 410 Expired ${t.expired}`;
}

/** What the event check found. */
export interface EventCheck {
  /** Occurrences on the server since the start that were never shown. */
  missed: string[];
  /** Occurrences shown more than once. */
  shownTwice: string[];
}

/**
 * Compares the events shown with the server's list of the namespace (the
 * demo's namespace is new and holds nothing but the demo's Deployment):
 * every event the follower's watch had reached must have been shown in its
 * latest occurrence (uid + count), and nothing shown twice.
 */
export async function checkEvents(
  kube: KubeClient,
  namespace: string,
  shown: FollowedEvent[],
  upToResourceVersion: number,
): Promise<EventCheck> {
  const keys = shown.map((e) => occurrenceKey(e.event));
  const shownTwice = keys.filter((k, i) => keys.indexOf(k) !== i);
  const shownSet = new Set(keys);
  const list = await kube.resource<CoreEvent>('events', namespace).listAll();
  const missed = list.items
    .filter((e) => Number(e.metadata?.resourceVersion) <= upToResourceVersion)
    .map((e) => occurrenceKey(e))
    .filter((k) => !shownSet.has(k));
  return { missed, shownTwice };
}
