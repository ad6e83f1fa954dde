/**
 * `npm run fidelity`: runs the whole corpus against the reference
 * kube-apiserver and watchmark, writes docs/fidelity.md and
 * bench/results/fidelity.json, and exits non-zero when a case differs
 * outside the known list.
 *
 *   npm run fidelity                      the whole corpus, report written
 *   npm run fidelity -- --only watch/     cases whose id starts so; prints their differences, writes nothing
 *   npm run fidelity -- --only a/,b/      cases whose id starts with any of them
 *   npm run fidelity -- --grep HPA.v1     cases whose id contains it (several: comma-separated)
 *   npm run fidelity -- --show ID         both servers' normalised answers of one case
 */

import { writeFileSync } from 'node:fs';
import { REFERENCE_RELEASE } from '../../src/process/index.js';
import { allCases } from './all-cases.js';
import { loadKnown } from './known.js';
import { normaliseCase } from './normalise.js';
import { buildReport, renderMarkdown } from './report.js';
import { runCorpus } from './run.js';

const args = process.argv.slice(2);
const only = flagValue('--only');
const show = flagValue('--show');
const grep = flagValue('--grep');

function flagValue(flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<number> {
  const known = loadKnown();
  const prefixes = only?.split(',');
  const parts = grep?.split(',');
  const filter = (id: string) =>
    show
      ? id === show
      : (!prefixes || prefixes.some((p) => id.startsWith(p))) &&
        (!parts || parts.some((p) => id.includes(p)));
  const corpus = allCases(filter);
  const summary = await runCorpus(corpus.written, {
    known,
    log: (line) => process.stderr.write(`${line}\n`),
    onPair: corpus.generated,
  });
  if (show) {
    for (const r of summary.records) {
      process.stdout.write(
        `${JSON.stringify({ reference: normaliseCase(r.reference), watchmark: normaliseCase(r.watchmark), result: r.result }, null, 2)}\n`,
      );
    }
    return 0;
  }
  const report = buildReport(
    summary,
    known,
    `kube-apiserver ${REFERENCE_RELEASE.kube}, etcd ${REFERENCE_RELEASE.etcd}`,
  );
  for (const d of report.differing) {
    process.stderr.write(`DIFFERS ${d.id}\n`);
    for (const x of d.differences) {
      process.stderr.write(
        `  ${x.path}\n    reference: ${JSON.stringify(x.reference)}\n    watchmark: ${JSON.stringify(x.watchmark)}\n`,
      );
    }
  }
  process.stderr.write(
    `${report.cases} cases: ${report.totals.matched} matched, ${report.totals.known} known, ${report.totals.differing} differing (${report.elapsedSeconds} s)\n`,
  );
  if (!only && !grep) {
    writeFileSync(
      new URL('../../docs/fidelity.md', import.meta.url),
      renderMarkdown(report, 'npm run fidelity'),
    );
    writeFileSync(
      new URL('../../bench/results/fidelity.json', import.meta.url),
      `${JSON.stringify(report, null, 2)}\n`,
    );
  }
  return report.totals.differing === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`fidelity: ${(err as Error).stack ?? err}\n`);
    process.exit(2);
  },
);
