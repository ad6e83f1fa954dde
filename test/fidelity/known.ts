/**
 * The deliberate differences (known-differences.yaml): each entry names the
 * cases (a glob over case ids), the fields (a glob over difference paths)
 * and the reason. Each is a debt, counted in the report; an entry that
 * covers nothing is stale, and the corpus test names it.
 */

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface KnownDifference {
  /** `case | path`, for the report. */
  key: string;
  case: string;
  path: string;
  reason: string;
  caseRe: RegExp;
  pathRe: RegExp;
}

/** Reads and checks the known-differences file. */
export function loadKnown(file = new URL('./known-differences.yaml', import.meta.url)): KnownDifference[] {
  const entries = (parse(readFileSync(file, 'utf8')) ?? []) as Array<Record<string, unknown>>;
  return entries.map((e, i) => {
    const { case: c, path, reason } = e;
    if (
      typeof c !== 'string' ||
      typeof path !== 'string' ||
      typeof reason !== 'string' ||
      reason.length < 20
    ) {
      throw new Error(
        `known-differences.yaml entry ${i + 1}: needs case, path and a reason (20+ characters)`,
      );
    }
    return { key: `${c} | ${path}`, case: c, path, reason, caseRe: glob(c), pathRe: glob(path) };
  });
}

/** The first entry covering a difference at `path` in case `id`. */
export function matchKnown(known: KnownDifference[], id: string, path: string): KnownDifference | undefined {
  return known.find((k) => k.caseRe.test(id) && k.pathRe.test(path));
}

/** `*` matches anything (dots and slashes included); everything else is literal. */
function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(literal).join('.*')}$`);
}

function literal(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
