/**
 * The shape of what the bookmark study produces (study.json): the runs, the
 * headline ratios, the selectivity table and the files written. Its own file
 * so that the study, its report and its chart all read it without importing
 * each other.
 */
import type { WatcherClass } from './cluster.js';
import type { ModelOutput } from './model.js';
import type { StudyOptions } from './options.js';
import type { RunResult } from './result.js';

/** The chart files written; `pngNote` says why there is no PNG. */
export interface ChartFiles {
  svg: string;
  png?: string;
  pngNote?: string;
}

/** One row of the selectivity table. */
export interface SelectivityRow {
  class: WatcherClass;
  /** What the watchers select, e.g. "1 of 500 nodes". */
  selects: string;
  watchers: number;
  /** The share of the churn each watcher is meant to see, and the share it saw. */
  share: number;
  seenShare: number;
  restartsWith: number;
  restartsWithout: number;
  /** Server restart work per watch restart, measured. */
  workPerRestartWith: number;
  workPerRestartWithout: number;
  /** with / without; null when a restart costs under one event without bookmarks (nothing to save). */
  ratio: number | null;
  relistsWith: number;
  relistsWithout: number;
  model: ModelOutput & { ratio: number | null };
  /** The run ids the row comes from. */
  runs: [string, string];
}

/** Everything the study produced. */
export interface StudyResult {
  options: StudyOptions;
  startedAt: string;
  realSeconds: number;
  runs: RunResult[];
  /**
   * The headline: server restart work per watch restart with bookmarks / without
   * (same window), and / without with the window doubled. Per restart, because a
   * loaded machine's sync time shifts how many restarts fall in a run's window.
   */
  ratio: number;
  ratioVsDoubledWindow: number;
  /** The same ratios of the runs' totals. */
  totalRatio: number;
  totalRatioVsDoubledWindow: number;
  /**
   * model.ts's lowest on/off ratio for any selectivity with these options
   * (and the watcher share that reaches it): how low the headline could go.
   */
  bestPossibleRatio: { ratio: number; share: number };
  /** Objects, resourceVersions or keys that differed between a cache and the server, over all runs. */
  missedEvents: number;
  selectivity: SelectivityRow[];
  files: ChartFiles & { json: string };
}
