/**
 * The controller-runtime part of docs/conformance.md, from bench/results/controller-runtime.json:
 * a line per package with its counts and run times, then every test only the reference passes
 * (and every one neither passes) with its cause.
 */
import type { Report, ServerName, TestRow } from './report.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function seconds(report: Report, pkg: string, server: ServerName): string {
  const run = report.packages.find((p) => p.package === pkg)?.runs[server];
  return run ? `${run.seconds} s${run.end === 'completed' ? '' : ` (${run.end})`}` : '';
}

/** The section, Markdown. */
export function controllerRuntimeMarkdown(report: Report): string {
  const out: string[] = [];
  const s = report.summary;
  out.push(`## controller-runtime ${report.controllerRuntime}'s own suites`);
  out.push('');
  out.push(
    `**${s.tests} tests of ${report.packages.length} packages: ${s.bothPass} pass on both, ${s.onlyReference} only on the reference, ` +
      `${s.onlyWatchmark} only on watchmark, ${s.neither} on neither, ${s.skippedOnBoth} skipped by the suites themselves.**`,
  );
  out.push('');
  out.push(
    "Each package's real test binary (`bash reference/controller-runtime.sh` builds them from Go modules) runs " +
      "against a fresh `watchmark serve --disable-admission-plugins ServiceAccount` through envtest's " +
      '`USE_EXISTING_CLUSTER=true`, and against the reference through `KUBEBUILDER_ASSETS` (envtest starts ' +
      `${report.reference} itself), the same ginkgo seed on both; run by ` +
      '`npx tsx test/conformance/controller-runtime/main.ts`, watchmark at ' +
      `${report.watchmark}.`,
  );
  out.push('');
  out.push(
    '| package | both pass | only reference | only watchmark | neither | skipped | watchmark | reference |',
  );
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const p of report.packages) {
    const c = report.summaryByPackage[p.package];
    if (!c) continue;
    out.push(
      `| ${p.package} | ${c.bothPass} | ${c.onlyReference} | ${c.onlyWatchmark} | ${c.neither} | ${c.skippedOnBoth} | ` +
        `${seconds(report, p.package, 'watchmark')} | ${seconds(report, p.package, 'reference')} |`,
    );
  }
  out.push('');
  const rows: Array<{ pkg: string; row: TestRow; what: string }> = [];
  for (const p of report.packages) {
    for (const row of p.tests) {
      if (row.reference === 'passed' && row.watchmark === 'failed')
        rows.push({ pkg: p.package, row, what: 'only reference' });
      else if (row.reference === 'failed' && row.watchmark === 'failed')
        rows.push({ pkg: p.package, row, what: 'neither' });
    }
  }
  out.push(`### Tests only the reference passes, or neither (${rows.length})`);
  out.push('');
  out.push('| package | test | passes on | cause |');
  out.push('| --- | --- | --- | --- |');
  for (const { pkg, row, what } of rows) {
    const cause = row.cause ? report.causes[row.cause]?.text : undefined;
    const text = cause ?? (row.watchmarkFailure ?? '').split('\n')[0] ?? '';
    out.push(
      `| ${pkg} | ${cell(row.name)} | ${what === 'neither' ? 'neither' : 'reference'} | ${cell(text)} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
