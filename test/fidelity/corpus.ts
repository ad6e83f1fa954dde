/**
 * The corpus: the written cases (cases/*.yaml, one file an area) and the
 * generated ones (generate/), which read the reference's own OpenAPI.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { FidelityCase } from './types.js';

const CASES_DIR = new URL('./cases/', import.meta.url);

/** Every written case; ids are checked for uniqueness. */
export function writtenCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  for (const file of readdirSync(CASES_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const area = file.replace(/\.yaml$/, '');
    // Cases share requests through YAML merge keys (`<<: *anchor`), which YAML 1.2 leaves off by default.
    const doc = parse(readFileSync(new URL(file, CASES_DIR), 'utf8'), { merge: true }) as {
      profile?: 'envtest' | 'cluster';
      cases: Array<Omit<FidelityCase, 'area' | 'id'> & { id: string }>;
    };
    for (const c of doc.cases) {
      out.push({ ...c, area, id: `${area}/${c.id}`, profile: c.profile ?? doc.profile });
    }
  }
  return unique(out);
}

/** Throws on a repeated id. */
export function unique(cases: FidelityCase[]): FidelityCase[] {
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new Error(`fidelity case id ${c.id} is used twice`);
    seen.add(c.id);
  }
  return cases;
}
