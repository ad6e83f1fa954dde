/**
 * Seeded randomness, so that runs differ only in what is studied and a
 * failure replays from its seed: the study's runs draw the same churn
 * operations in the same order and every watcher the same watch timeouts and
 * backoff jitter; the chaos benchmark and the fuzz tests draw their
 * schedules from it.
 */

/** A random source in [0, 1), as `Math.random`. */
export type Random = () => number;

/** mulberry32: small, fast and good enough for a load generator (not for secrets). */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An independent stream for `(seed, stream)`: watcher 17 gets the same draws whatever the others do. */
export function streamRandom(seed: number, stream: number): Random {
  // Mixing through one draw decorrelates neighbouring stream numbers.
  const mixed = Math.floor(seededRandom((seed * 0x9e3779b1) ^ (stream * 0x85ebca6b))() * 2 ** 32);
  return seededRandom(mixed);
}

/** An integer in [0, n). */
export function randomInt(random: Random, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
