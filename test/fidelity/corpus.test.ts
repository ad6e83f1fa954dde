/**
 * The differential corpus as a test: every case against the reference
 * kube-apiserver and watchmark; the test fails on any difference that
 * known-differences.yaml does not name, and on a known entry that covers
 * nothing any more (a debt paid must leave the list). `npm run fidelity`
 * runs the same corpus and writes the report.
 */

import { describe, expect, it } from 'vitest';
import { findReferenceBinaries, REFERENCE_RELEASE } from '../../src/process/index.js';
import { requireTool } from '../helpers/tools.js';
import { allCases } from './all-cases.js';
import { loadKnown } from './known.js';
import { buildReport } from './report.js';
import { runCorpus } from './run.js';

const available = requireTool(
  `the reference kube-apiserver ${REFERENCE_RELEASE.kube} (build it: bash reference/build.sh)`,
  findReferenceBinaries() !== undefined,
);

describe.skipIf(!available)('fidelity corpus against kube-apiserver', () => {
  it('answers as the reference does, outside the known differences', { timeout: 900_000 }, async () => {
    const known = loadKnown();
    const corpus = allCases();
    const summary = await runCorpus(corpus.written, { known, onPair: corpus.generated });
    const report = buildReport(summary, known, `kube-apiserver ${REFERENCE_RELEASE.kube}`);
    console.log(
      `fidelity: ${report.cases} cases in ${report.areas.length} areas: ${report.totals.matched} matched, ` +
        `${report.totals.known} known, ${report.totals.differing} differing (${report.elapsedSeconds} s)` +
        (report.unstable.length > 0
          ? `; unstable (matched on a second run): ${report.unstable.map((u) => u.id).join(', ')}`
          : ''),
    );
    const differing = report.differing.map(
      (d) =>
        `${d.id}: ${d.differences.map((x) => `${x.path}: reference ${JSON.stringify(x.reference)}, watchmark ${JSON.stringify(x.watchmark)}`).join('; ')}`,
    );
    expect(differing).toEqual([]);
    const stale = report.known.filter((k) => k.cases === 0).map((k) => `${k.case} | ${k.path}`);
    expect(stale, 'known differences that no case shows any more').toEqual([]);
  });
});
