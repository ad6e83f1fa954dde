/**
 * What the study should find, from first principles, printed beside what it
 * measures. A watcher sees its share of a Poisson churn of `r` writes/s, so
 * the time since its last event is exponential with rate `λ = share · r`.
 * When its watch times out it restarts from its last resourceVersion:
 *
 * - without bookmarks, that resourceVersion is as old as its last event. If
 *   that is younger than the history window H, the server examines every
 *   write since (about `r` per second of lag); if older, it answers 410 and
 *   the watcher relists its `objects`.
 * - with bookmarks, the server sent the latest resourceVersion `lead` before
 *   the deadline (unless an own event came later): the lag is at most `lead`
 *   and a 410 never happens.
 *
 * So the saving is large for selective watchers (λ·H around 1: a kubelet)
 * and vanishes for a watcher that sees everything (its own events keep its
 * resourceVersion fresh). Reconnect latency, which time compression does not
 * shrink, adds about `r · latency` examined events to every restart in both.
 */

/** Inputs of the model, in cluster units (seconds, writes per second). */
export interface ModelInput {
  /** Cluster writes per second. */
  churn: number;
  /** The share of those writes the watcher sees (0..1]. */
  share: number;
  historyWindowS: number;
  bookmarkLeadS: number;
  /** Objects the watcher's selection holds (what a relist returns). */
  objects: number;
  /**
   * Seconds from a watch's end until its successor is open (default 0). With
   * bookmarks the writes of that gap are examined on top of the lead's; a
   * time-compressed run makes it look `scale` times longer, so pass the
   * measured gap to compare like with like.
   */
  reconnectS?: number;
}

/** Expected server work per watch restart, with and without bookmarks. */
export interface ModelOutput {
  /** Restart work (events examined + objects relisted) per restart without bookmarks. */
  withoutBookmarks: number;
  /** The same with bookmarks. */
  withBookmarks: number;
  /** Probability that a restart without bookmarks gets a 410 and relists. */
  expiredShare: number;
}

/** The expected restart work; see the file comment for the reasoning. */
export function expectedRestartWork(m: ModelInput): ModelOutput {
  const lambda = m.share * m.churn;
  // Writes by others per second of lag: the watcher's own events are not "behind".
  const others = m.churn - lambda;
  const x = lambda * m.historyWindowS;
  const pExpired = Math.exp(-x);
  // E[lag · 1(lag < H)] for an exponential lag: (1 - e^-x (1 + x)) / λ.
  const lagInWindow = (1 - Math.exp(-x) * (1 + x)) / lambda;
  const withoutBookmarks = others * lagInWindow + m.objects * pExpired;
  // With bookmarks the lag is min(time since own event, lead + reconnect): E = (1 - e^-λL) / λ.
  const lead = m.bookmarkLeadS + (m.reconnectS ?? 0);
  const withBookmarks = (others * (1 - Math.exp(-lambda * lead))) / lambda;
  return { withoutBookmarks, withBookmarks, expiredShare: pExpired };
}

/**
 * The lowest on/off ratio the model allows for any selectivity, with the
 * given window, lead and churn. A watcher's selection holds `share · objects`
 * objects (all watchers partition the same `objects`). Without bookmarks the
 * replay part of a restart is at most about 0.3 H of writes, reached when a
 * watcher sees an event every H / 1.8 seconds on average: quieter watchers
 * get 410s and cheap relists instead, busier ones are never far behind. So
 * with a 75 s window and a 2 s lead no watcher gets near 1/40; the window
 * must reach back well past the quiet spells for the ratio to fall that low.
 */
export function bestRatio(m: Omit<ModelInput, 'share'>): { ratio: number; share: number } {
  let best = { ratio: Number.POSITIVE_INFINITY, share: 1 };
  // x = λ·H from 0.01 to 20 covers every watcher that could save anything.
  for (let i = 1; i <= 2000; i++) {
    const share = i / 100 / (m.churn * m.historyWindowS);
    if (share > 1) break;
    const out = expectedRestartWork({ ...m, share, objects: share * m.objects });
    if (out.withoutBookmarks < 1) continue;
    const ratio = out.withBookmarks / out.withoutBookmarks;
    if (ratio < best.ratio) best = { ratio, share };
  }
  return best;
}
