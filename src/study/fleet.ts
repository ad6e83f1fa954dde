/**
 * The study's watchers: one informer per {@link WatcherSpec}, spread over a
 * few KubeClient transports, each restarting its watch on its own (scaled)
 * timeout exactly as the library does, with or without bookmarks. Totals
 * sum the library's own metrics plus the {@link CountingSource} counts.
 */
import type { KubeClient } from '../client/client.js';
import { Informer, type InformerOptions } from '../client/informer/informer.js';
import { newWatcherMetrics, type WatcherMetrics } from '../client/watch/metrics.js';
import type { WatcherOptions } from '../client/watch/watcher.js';
import { streamRandom } from '../process/index.js';
import type { KubeObject } from '../protocol/events.js';
import { STUDY_NAMESPACE, type WatcherClass, type WatcherSpec } from './cluster.js';
import { type StudyOptions, toReal } from './options.js';
import { CountingSource, type SourceCounts } from './source.js';

/** One watcher of the fleet. */
export interface FleetMember {
  spec: WatcherSpec;
  informer: Informer;
  source: CountingSource;
}

/** The summed counters of some watchers. */
export interface ClientTotals extends Omit<WatcherMetrics, 'resourceVersion' | 'lastEventAt'>, SourceCounts {
  watchers: number;
}

/** The watcher options of a run, every duration divided by the time scale. */
export function scaledWatcherOptions(opts: StudyOptions, bookmarks: boolean): WatcherOptions {
  const [min, max] = opts.watchTimeoutMs;
  return {
    bookmarks,
    watchTimeoutMs: [toReal(opts, min), toReal(opts, max)],
    backoff: {
      initialMs: toReal(opts, 800),
      maxMs: toReal(opts, 30_000),
      resetAfterMs: toReal(opts, 120_000),
    },
    minWatchMs: toReal(opts, 1_000),
    // The default (timeout + 5 s) would not be scaled.
    idleTimeoutMs: toReal(opts, max + 5_000),
  };
}

/** The watchers of one run. */
export class Fleet {
  readonly members: FleetMember[];

  constructor(
    kubes: KubeClient[],
    specs: WatcherSpec[],
    opts: StudyOptions,
    run: { bookmarks: boolean; historyWindowMs: number },
    /** More options for each watcher's informer (the restart study's checkpoints). */
    extra?: (spec: WatcherSpec, kube: KubeClient) => InformerOptions<KubeObject>,
  ) {
    const base = scaledWatcherOptions(opts, run.bookmarks);
    const windowReal = toReal(opts, run.historyWindowMs);
    this.members = specs.map((spec, i) => {
      const kube = kubes[i % kubes.length];
      const { labelSelector, fieldSelector } = spec.selection;
      const inner = kube.resource('pods', STUDY_NAMESPACE).listWatch({ labelSelector, fieldSelector });
      const source = new CountingSource(inner, windowReal);
      // Watcher i draws the same timeouts and jitter in every run: restarts line up across runs.
      const informer = new Informer(source, {
        ...base,
        random: streamRandom(opts.seed, i),
        ...extra?.(spec, kube),
      });
      return { spec, informer, source };
    });
  }

  /** Starts the informers of the members `which` selects (default all) and resolves when they have synced. */
  async start(which: (m: FleetMember) => boolean = () => true): Promise<void> {
    await Promise.all(this.members.filter(which).map((m) => m.informer.start().synced()));
  }

  /**
   * The two counters a run's progress line and timeline need, summed without
   * building {@link totals}: over thousands of watchers, building the totals
   * at every sample took a visible share of the study process's main thread
   * in a profile, time the watchers it measures then lacked.
   */
  progress(): { restarts: number; relists: number } {
    let restarts = 0;
    let relists = 0;
    for (const m of this.members) {
      const { watchEnds, lists } = m.informer.watcher.metrics;
      restarts += watchEnds.timeout + watchEnds.serverClose;
      relists += lists.initial + lists.expired + lists.tooLarge + lists.error;
    }
    return { restarts, relists };
  }

  /** Totals over the watchers of `cls` (all watchers when undefined). */
  totals(cls?: WatcherClass): ClientTotals {
    const t: ClientTotals = {
      ...structuredClone(newWatcherMetrics()),
      listBytes: 0,
      staleStarts: 0,
      watchStarts: 0,
      reconnects: 0,
      reconnectMs: 0,
      watchers: 0,
    };
    delete (t as Partial<WatcherMetrics>).resourceVersion;
    delete (t as Partial<WatcherMetrics>).lastEventAt;
    for (const m of this.members) {
      if (cls !== undefined && m.spec.class !== cls) continue;
      const w = m.informer.watcher.metrics;
      t.watchers++;
      addRecord(t.lists, w.lists);
      addRecord(t.watchEnds, w.watchEnds);
      addRecord(t.events, w.events);
      t.pages += w.pages;
      t.listedObjects += w.listedObjects;
      t.watchesStarted += w.watchesStarted;
      t.bookmarks += w.bookmarks;
      t.resumes += w.resumes;
      t.errors += w.errors;
      t.bytesRead += w.bytesRead;
      t.listBytes += m.source.counts.listBytes;
      t.staleStarts += m.source.counts.staleStarts;
      t.watchStarts += m.source.counts.watchStarts;
      t.reconnects += m.source.counts.reconnects;
      t.reconnectMs += m.source.counts.reconnectMs;
    }
    return t;
  }

  /** Stops every informer. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.informer.stop()));
  }
}

function addRecord<K extends string>(into: Record<K, number>, from: Record<K, number>): void {
  for (const k of Object.keys(from) as K[]) into[k] = (into[k] ?? 0) + from[k];
}

/** `b - a`, field by field (numbers and records of numbers). */
export function diffTotals(b: ClientTotals, a: ClientTotals): ClientTotals {
  const out = structuredClone(b);
  for (const key of Object.keys(out) as Array<keyof ClientTotals>) {
    const v = out[key];
    if (key === 'watchers') continue;
    if (typeof v === 'number') (out[key] as number) = v - (a[key] as number);
    else
      for (const k of Object.keys(v))
        (v as Record<string, number>)[k] -= (a[key] as Record<string, number>)[k];
  }
  return out;
}
