/**
 * The bookmark study's inputs. Every duration here is in *cluster time*: at
 * time scale 1 the study runs on kube-apiserver's own timing; at scale S every
 * time-based setting (server knobs, client watch timeouts and backoff, churn
 * rate, duration, sampling) is divided by S so the same experiment runs S
 * times faster. Counts (watchers, pods, events per restart) do not change
 * with the scale, which is what makes a compressed run comparable.
 */

/** Options of {@link runStudy}, in cluster time. */
export interface StudyOptions {
  /** Kubelet-like watchers, one per node, each watching `spec.nodeName=node-i` (default 500). */
  watchers: number;
  /** Pods standing on each node before the churn starts (default 10). */
  podsPerNode: number;
  /** Namespace-wide watchers running beside the kubelets (default 2). */
  namespaceWatchers: number;
  /** How long the churn runs, in cluster ms (default 20 min). */
  durationMs: number;
  /** Pod writes per cluster second, spread uniformly over the nodes (default 5). */
  churn: number;
  /** The watch cache's history window (default 75 s, kube-apiserver's). */
  historyWindowMs: number;
  /** How often each bookmark-enabled watch gets a bookmark (default 60 s). */
  bookmarkIntervalMs: number;
  /** How long before a watch's deadline its last bookmark goes (default 2 s). */
  bookmarkLeadMs: number;
  /** Client watch timeouts, uniform in [min, max) (default [5, 10) min, client-go's reflector). */
  watchTimeoutMs: [number, number];
  /** The time compression factor (default 30). */
  timeScale: number;
  /** Seeds the churn and every watcher's random timeouts: runs differ only in what is studied. */
  seed: number;
  /** Also run the selectivity pairs (watchers seeing 1 %, 10 %, 100 % of the events). */
  selectivity: boolean;
  /** Cluster duration of each selectivity run (default: half of `durationMs`). */
  selectivityDurationMs: number;
  /** How many KubeClient transports the watchers share (default 4). */
  transports: number;
  /** Where study.json, study.svg and study.png go (default bench/results). */
  outDir: string;
  /** The small preset (`--quick`): a smoke run in well under a minute. */
  quick: boolean;
}

const MINUTE = 60_000;

/** Attempts per run: a run disturbed by a stall is repeated, at most this many times in all. */
export const MAX_ATTEMPTS = 3;

/** The defaults: a 500-node cluster's kubelets for 20 minutes, compressed 30x (about 6 minutes in all). */
export const STUDY_DEFAULTS: StudyOptions = {
  watchers: 500,
  podsPerNode: 10,
  namespaceWatchers: 2,
  durationMs: 20 * MINUTE,
  churn: 5,
  historyWindowMs: 75_000,
  bookmarkIntervalMs: 60_000,
  bookmarkLeadMs: 2_000,
  watchTimeoutMs: [5 * MINUTE, 10 * MINUTE],
  timeScale: 30,
  seed: 1,
  selectivity: true,
  selectivityDurationMs: 10 * MINUTE,
  transports: 4,
  outDir: 'bench/results',
  quick: false,
};

/**
 * `--quick`: 50 watchers for 10 cluster minutes at 60x (10 s a run). The
 * churn keeps each watcher's event rate (one event per node per ~100 s) so
 * the effect has the same direction and rough size; no selectivity runs.
 */
export const QUICK_PRESET: Partial<StudyOptions> = {
  watchers: 50,
  podsPerNode: 4,
  namespaceWatchers: 1,
  durationMs: 10 * MINUTE,
  churn: 0.5,
  timeScale: 60,
  selectivity: false,
  transports: 2,
  quick: true,
};

/** The options in force: defaults, then the quick preset, then what was given. */
export function resolveOptions(given: Partial<StudyOptions> = {}): StudyOptions {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const opts: StudyOptions = {
    ...STUDY_DEFAULTS,
    ...(given.quick ? QUICK_PRESET : {}),
    ...defined,
  } as StudyOptions;
  if (given.selectivityDurationMs === undefined) opts.selectivityDurationMs = opts.durationMs / 2;
  validate(opts);
  return opts;
}

function validate(o: StudyOptions): void {
  const positive: Array<keyof StudyOptions> = [
    'watchers',
    'podsPerNode',
    'durationMs',
    'churn',
    'historyWindowMs',
    'bookmarkIntervalMs',
    'bookmarkLeadMs',
    'timeScale',
    'transports',
  ];
  for (const k of positive) {
    const v = o[k] as number;
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${k} must be positive, not ${v}`);
  }
  if (o.bookmarkLeadMs >= o.watchTimeoutMs[0])
    throw new RangeError('the bookmark lead must be shorter than the shortest watch timeout');
  // The client sends timeoutSeconds as whole seconds: a compressed timeout under 2 s loses too much.
  if (o.watchTimeoutMs[0] / o.timeScale < 2_000)
    throw new RangeError(
      `time scale ${o.timeScale} makes the shortest watch timeout ${Math.round(o.watchTimeoutMs[0] / o.timeScale)} ms: keep it >= 2 s`,
    );
}

/** Real (wall-clock) ms for `clusterMs` of cluster time, never below 1 ms. */
export function toReal(opts: StudyOptions, clusterMs: number): number {
  return Math.max(1, Math.round(clusterMs / opts.timeScale));
}

/** The cluster layout derived from the options: racks hold 1 % of the nodes, zones 10 %. */
export interface Layout {
  nodes: number;
  racks: number;
  zones: number;
}

/** Nodes are spread over racks and zones round-robin (`node-i` is in rack `i % racks`, zone `i % zones`). */
export function layoutOf(opts: StudyOptions): Layout {
  return { nodes: opts.watchers, racks: Math.min(100, opts.watchers), zones: Math.min(10, opts.watchers) };
}
