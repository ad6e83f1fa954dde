/**
 * Completion indexes of an Indexed Job as ordered, merged intervals, and their text form
 * (`status.completedIndexes`: `1,3-5,7`), as pkg/controller/job/indexed_job_utils.go keeps them
 * (`orderedIntervals`, `parseIndexesFromString`, `firstPendingIndexes`).
 */

/** One run of indexes, both ends included. */
export interface Interval {
  first: number;
  last: number;
}

/** Indexes as sorted, non-touching intervals. */
export type Intervals = Interval[];

/** The pod annotation (and label) naming a pod's index. */
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';

/** A pod's completion index from its annotations, or -1 when it has none or a bad one (`getCompletionIndex`). */
export function completionIndex(annotations: Record<string, string> | undefined): number {
  const v = annotations?.[COMPLETION_INDEX];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return -1;
  const n = Number(v);
  return n < 0 ? -1 : n;
}

/**
 * `parseIndexesFromString`: intervals below `completions` (an end beyond it is cut; an interval
 * starting at or beyond it ends the parse); a malformed interval is skipped.
 */
export function parseIndexes(text: string | undefined, completions: number): Intervals {
  if (!text) return [];
  const out: Intervals = [];
  for (const part of text.split(',')) {
    const limits = part.split('-');
    const first = atoi(limits[0]!);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const end = atoi(limits[1]!);
      if (end === undefined) continue;
      last = Math.min(end, completions - 1);
    }
    const prev = out.at(-1);
    if (prev && prev.last === first - 1) prev.last = last;
    else out.push({ first, last });
  }
  return out;
}

function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

/** `orderedIntervals.merge`: the union of two interval lists. */
export function mergeIntervals(a: Intervals, b: Intervals): Intervals {
  const out: Intervals = [];
  const push = (iv: Interval) => {
    const last = out.at(-1);
    if (!last || iv.first > last.last + 1) out.push({ ...iv });
    else if (last.last < iv.last) last.last = iv.last;
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.first < b[j]!.first) push(a[i++]!);
    else push(b[j++]!);
  }
  while (i < a.length) push(a[i++]!);
  while (j < b.length) push(b[j++]!);
  return out;
}

/** `withOrderedIndexes`: the intervals with these (sorted) indexes added. */
export function withIndexes(a: Intervals, indexes: number[]): Intervals {
  return mergeIntervals(
    a,
    indexes.map((n) => ({ first: n, last: n })),
  );
}

/** How many indexes the intervals hold. */
export function totalIndexes(a: Intervals): number {
  return a.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
}

/** Whether `ix` is in the intervals. */
export function hasIndex(a: Intervals, ix: number): boolean {
  return a.some((iv) => iv.first <= ix && ix <= iv.last);
}

/** The text form: `0,2-4,6,7` (two neighbours are written with a comma, three or more as a range). */
export function formatIndexes(a: Intervals): string {
  return a
    .map((iv) =>
      iv.last === iv.first ? `${iv.first}` : `${iv.first}${iv.last === iv.first + 1 ? ',' : '-'}${iv.last}`,
    )
    .join(',');
}

/** `firstPendingIndexes`: the `count` lowest indexes below `completions` not in `nonPending`. */
export function firstPendingIndexes(nonPending: Intervals, count: number, completions: number): number[] {
  const out: number[] = [];
  if (count === 0) return out;
  let candidate = 0;
  for (const iv of nonPending) {
    for (; candidate < completions && out.length < count && candidate < iv.first; candidate++)
      out.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
  return out;
}

/** `podGenerateNameWithIndex`: `<job>-<index>-`, the job name cut so the prefix fits 58 characters. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  const max = 63 - 5; // names.MaxGeneratedNameLength
  return prefix.length > max ? jobName.slice(0, max - suffix.length) + suffix : prefix;
}
