/**
 * The conformance report: each test with its result on both servers, in one
 * of five categories, the cause of every test only the reference passes
 * (causes.yaml), and docs/conformance.md rendered from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { REFERENCE_RELEASE } from '../../src/process/index.js';
import type { ConformanceTest } from './catalogue.js';
import { controllerRuntimeMarkdown } from './controller-runtime/markdown.js';
import type { Report as ControllerRuntimeReport } from './controller-runtime/report.js';
import type { E2eResult } from './e2e-run.js';
import type { Need } from './needs.js';
import type { ServerRun } from './run.js';
import { WATCHMARK_SERVE_ARGS } from './servers.js';

/** Where a test landed. */
export type Category = 'both pass' | 'only reference' | 'only watchmark' | 'neither' | 'not applicable';

/** One test's line in the report. */
export interface TestLine {
  name: string;
  testname: string;
  sig: string;
  category: Category;
  /** Why it cannot run without kubelets (not applicable). */
  reason?: string;
  /** Why watchmark fails it (only reference), from causes.yaml. */
  cause?: { area: string; text: string };
  watchmark?: E2eResult;
  reference?: E2eResult;
}

/** The report, its JSON and its one-line summary. */
export interface ConformanceReport {
  tests: TestLine[];
  json: Record<string, unknown>;
  summaryLine: string;
  runs: Array<{ server: string; seconds: number; startMs: number }>;
}

/**
 * causes.yaml: why watchmark fails a test the reference passes, with the issue area that owns
 * the fix. An entry applies to a test when every condition it gives holds: `name` is the
 * test's name, `test` (a regular expression) matches it, `failure` (one too) matches
 * watchmark's failure message, whose first group fills `$1` in the cause. The first entry that
 * applies wins.
 */
interface CauseEntry {
  name?: string;
  test?: string;
  failure?: string;
  area: string;
  cause: string;
}

function readCauses(path: string): CauseEntry[] {
  if (!existsSync(path)) return [];
  return (parse(readFileSync(path, 'utf8')) ?? []) as CauseEntry[];
}

/** The cause of the first entry that applies to the test, or undefined. */
export function causeOf(
  entries: CauseEntry[],
  name: string,
  failure: string,
): { area: string; text: string } | undefined {
  for (const e of entries) {
    if (e.name !== undefined && e.name !== name) continue;
    if (e.test !== undefined && !new RegExp(e.test).test(name)) continue;
    const m = e.failure === undefined ? undefined : new RegExp(e.failure).exec(failure);
    if (e.failure !== undefined && !m) continue;
    return { area: e.area, text: e.cause.replace(/\$(\d)/g, (_, i) => m?.[Number(i)] ?? '') };
  }
  return undefined;
}

function categorise(w: E2eResult | undefined, r: E2eResult | undefined): Category {
  const wp = w?.state === 'passed';
  const rp = r?.state === 'passed';
  if (wp && rp) return 'both pass';
  if (rp) return 'only reference';
  if (wp) return 'only watchmark';
  return 'neither';
}

/** Builds the report from the catalogue, the needs and the two servers' runs. */
export function buildReport(
  catalogue: ConformanceTest[],
  needs: Map<string, Need>,
  runs: ServerRun[],
  causesPath: string,
): ConformanceReport {
  const causes = readCauses(causesPath);
  const watchmark = runs.find((r) => r.server === 'watchmark');
  const reference = runs.find((r) => r.server === 'reference');
  const tests: TestLine[] = catalogue.map((t) => {
    const line: TestLine = { name: t.name, testname: t.testname, sig: t.sig, category: 'not applicable' };
    const reason = needs.get(t.name);
    if (reason) return { ...line, reason };
    line.watchmark = watchmark?.results.get(t.name);
    line.reference = reference?.results.get(t.name);
    line.category = categorise(line.watchmark, line.reference);
    if (line.category === 'only reference' || line.category === 'neither') {
      line.cause = causeOf(causes, t.name, line.watchmark?.failure ?? '');
    }
    return line;
  });
  const totals: Record<Category, number> = {
    'both pass': 0,
    'only reference': 0,
    'only watchmark': 0,
    neither: 0,
    'not applicable': 0,
  };
  for (const t of tests) totals[t.category]++;
  const run = tests.length - totals['not applicable'];
  const summaryLine =
    `${tests.length} conformance tests of ${REFERENCE_RELEASE.kube}; ${run} need no running container: ` +
    `${totals['both pass']} pass on both, ${totals['only reference']} only on the reference, ` +
    `${totals['only watchmark']} only on watchmark, ${totals.neither} on neither`;
  const runLines = runs.map((r) => ({ server: r.server, seconds: r.seconds, startMs: r.startMs }));
  const json = {
    release: REFERENCE_RELEASE.kube,
    watchmarkServe: `watchmark serve ${WATCHMARK_SERVE_ARGS.map((a) => (a === '*' ? "'*'" : a)).join(' ')}`,
    reference: `kube-apiserver + kube-controller-manager ${REFERENCE_RELEASE.kube} (cluster profile), etcd ${REFERENCE_RELEASE.etcd}`,
    runs: runLines,
    totals: { conformance: tests.length, run, ...totals },
    tests,
  };
  return { tests, json, summaryLine, runs: runLines };
}

/**
 * The report of a committed run (bench/results/conformance.json), its causes read again from
 * causes.yaml: what `npm run conformance -- --render` writes docs/conformance.md from.
 */
export function reportFromJson(json: Record<string, unknown>, causesPath: string): ConformanceReport {
  const causes = readCauses(causesPath);
  const tests = (json.tests as TestLine[]).map((t) => {
    if (t.category !== 'only reference' && t.category !== 'neither') return t;
    return { ...t, cause: causeOf(causes, t.name, t.watchmark?.failure ?? '') };
  });
  const totals = json.totals as Record<string, number>;
  const summaryLine =
    `${totals.conformance} conformance tests of ${json.release}; ${totals.run} need no running container: ` +
    `${totals['both pass']} pass on both, ${totals['only reference']} only on the reference, ` +
    `${totals['only watchmark']} only on watchmark, ${totals.neither} on neither`;
  const runs = json.runs as ConformanceReport['runs'];
  return { tests, json: { ...json, tests }, summaryLine, runs };
}

function state(r: E2eResult | undefined): string {
  if (!r) return '';
  return `${r.state} (${r.seconds.toFixed(1)} s)`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** docs/conformance.md, with controller-runtime's section when its results are given. */
export function renderMarkdown(
  report: ConformanceReport,
  controllerRuntime?: ControllerRuntimeReport,
): string {
  const out: string[] = [];
  const by = (c: Category) => report.tests.filter((t) => t.category === c);
  out.push('# Kubernetes conformance tests against watchmark');
  out.push('');
  out.push('<!-- Generated by `npm run conformance` (test/conformance/main.ts); do not edit by hand. -->');
  out.push('');
  out.push(`**${report.summaryLine}.**`);
  out.push('');
  out.push(
    `Kubernetes' own end-to-end binary, \`e2e.test\` ${REFERENCE_RELEASE.kube} (built from Go modules by ` +
      '`bash reference/e2e.sh`), runs every conformance test that needs no running container against ' +
      `\`${report.json.watchmarkServe}\` and against the reference (${report.json.reference}) in the same run, ` +
      'with the framework flags for a control plane without kubelets (`--provider=skeleton ' +
      "--e2e-verify-service-account=false --allowed-not-ready-nodes=-1 --num-nodes=1`, the reference build's kubectl). " +
      'Each test runs in an e2e.test process of its own, several at a time per server and both servers at once ' +
      '(run times below are wall clock on 2 cores). ' +
      'A test is *not applicable* when its source waits for a container to really run (the reason names the call), ' +
      'or when it failed on the reference for want of a kubelet (`test/conformance/needs.yaml` says what it waited for).',
  );
  out.push('');
  out.push('| server | run time | start |');
  out.push('| --- | ---: | ---: |');
  for (const r of report.runs) out.push(`| ${r.server} | ${r.seconds} s | ${r.startMs} ms |`);
  out.push('');
  const sections: Array<[Category, string]> = [
    ['only reference', 'Only the reference passes'],
    ['neither', 'Neither passes'],
    ['only watchmark', 'Only watchmark passes'],
    ['both pass', 'Both pass'],
  ];
  for (const [category, title] of sections) {
    const list = by(category);
    out.push(`## ${title} (${list.length})`);
    out.push('');
    if (list.length === 0) {
      out.push('None.');
      out.push('');
      continue;
    }
    const withCause = category === 'only reference' || category === 'neither';
    out.push(withCause ? '| test | watchmark | reference | cause |' : '| test | watchmark | reference |');
    out.push(withCause ? '| --- | --- | --- | --- |' : '| --- | --- | --- |');
    for (const t of list) {
      const base = `| ${cell(t.name)} | ${state(t.watchmark)} | ${state(t.reference)} |`;
      if (!withCause) out.push(base);
      else {
        const cause = t.cause
          ? `${t.cause.text} (${t.cause.area})`
          : cell((t.watchmark?.failure ?? t.reference?.failure ?? '').split('\n')[0] ?? '');
        out.push(`${base} ${cell(cause)} |`);
      }
    }
    out.push('');
  }
  const na = by('not applicable');
  out.push(`## Not applicable: needs a running container (${na.length})`);
  out.push('');
  out.push('| test | why |');
  out.push('| --- | --- |');
  for (const t of na) out.push(`| ${cell(t.name)} | ${cell(t.reason ?? '')} |`);
  out.push('');
  if (controllerRuntime) out.push(controllerRuntimeMarkdown(controllerRuntime));
  return out.join('\n');
}
