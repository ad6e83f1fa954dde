/**
 * Compares the normalised observations of the reference and of watchmark for
 * one case, and sorts what differs into known (an entry of
 * known-differences.yaml covers it) and not.
 */

import type { KnownDifference } from './known.js';
import { matchKnown } from './known.js';
import { normaliseCase } from './normalise.js';
import type { CaseResult, Difference, FidelityCase, Observation } from './types.js';

const MAX_DIFFERENCES = 40;

/** Judges one case. */
export function judge(
  c: FidelityCase,
  reference: Observation[],
  watchmark: Observation[],
  known: KnownDifference[],
): CaseResult {
  const diffs: Difference[] = [];
  diff(normaliseCase(reference), normaliseCase(watchmark), '', diffs);
  const result: CaseResult = { id: c.id, area: c.area, outcome: 'matched', differences: [], known: [] };
  for (const d of diffs) {
    const entry = matchKnown(known, c.id, d.path);
    if (entry) result.known.push({ ...d, entry: entry.key });
    else result.differences.push(d);
  }
  // The reference is the judge: a case that could not run on it (a wait that timed out, a
  // server that refused the connection) proves nothing, whatever watchmark did.
  for (const o of reference) {
    if (o.kind === 'error') {
      result.differences.push({
        path: `${o.step}.error`,
        reference: o.error,
        watchmark: '(a case must run on the reference)',
      });
    }
  }
  result.outcome =
    result.differences.length > 0 ? 'differing' : result.known.length > 0 ? 'known' : 'matched';
  return result;
}

function diff(a: unknown, b: unknown, path: string, out: Difference[]): void {
  if (out.length >= MAX_DIFFERENCES) return;
  if (Object.is(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({ path: join(path, 'length'), reference: a.length, watchmark: b.length });
    }
    for (let i = 0; i < Math.min(a.length, b.length); i++) diff(a[i], b[i], join(path, String(i)), out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) diff(a[k], b[k], join(path, k), out);
    return;
  }
  out.push({ path: path || '.', reference: a, watchmark: b });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
