/**
 * bench/results/controller-runtime.json: per package, each server's run
 * (how it ended, how long it took) and per test both servers' outcomes, with
 * a summary that sorts every test into one category. A run with `--only` or
 * `--server` replaces just the runs it made in an existing file.
 */
import { CAUSES, causeOf, SUBTEST_FAILED } from './causes.js';
import type { Outcome, TestResult } from './parse.js';
import type { PackageRun } from './run-binary.js';

/** The two servers each binary runs against. */
/**
 * The servers a binary runs against: watchmark and the reference as envtest runs it, and, to
 * tell the test harness's part from the server's, the reference as an existing cluster
 * (started once per package like watchmark, used through USE_EXISTING_CLUSTER).
 */
export type ServerName = 'watchmark' | 'reference' | 'referenceExisting';
export const SERVERS: readonly ServerName[] = ['watchmark', 'reference'];

/** A run as stored, without the per-test list (that is merged into `tests`). */
export type StoredRun = Omit<PackageRun, 'tests'> & { counts: Record<Outcome, number> };

/** One test's outcomes on both servers. */
export interface TestRow {
  name: string;
  watchmark?: Outcome;
  reference?: Outcome;
  referenceExisting?: Outcome;
  watchmarkFailure?: string;
  referenceFailure?: string;
  referenceExistingFailure?: string;
  /** Why it fails (on watchmark, else on the reference), when the cause is known: an id of `causes`. */
  cause?: string;
}

/** One package's runs and tests. */
export interface PackageReport {
  package: string;
  runs: Partial<Record<ServerName, StoredRun>>;
  tests: TestRow[];
}

/** How a test compares across the two servers. */
export type Category = 'bothPass' | 'onlyReference' | 'onlyWatchmark' | 'neither' | 'skippedOnBoth';

/** The whole file. */
export interface Report {
  generatedAt: string;
  controllerRuntime: string;
  /** The `-ginkgo.seed` of every suite on both servers. */
  ginkgoSeed?: number;
  reference: string;
  watchmark: string;
  summary: Record<Category, number> & { tests: number };
  summaryByPackage: Record<string, Record<Category, number>>;
  /** The known causes of failure, with how many tests of each category they explain. */
  causes: Record<string, { text: string; onPurpose: boolean; onlyReference: number; other: number }>;
  packages: PackageReport[];
}

/** The category of one row; a test missing on one server counts as not passed there. */
export function categorise(row: TestRow): Category {
  const w = row.watchmark === 'passed';
  const r = row.reference === 'passed';
  if (w && r) return 'bothPass';
  if (r) return 'onlyReference';
  if (w) return 'onlyWatchmark';
  if (row.watchmark === 'failed' || row.reference === 'failed') return 'neither';
  return 'skippedOnBoth';
}

function emptyCounts(): Record<Category, number> {
  return { bothPass: 0, onlyReference: 0, onlyWatchmark: 0, neither: 0, skippedOnBoth: 0 };
}

function countOutcomes(tests: TestResult[]): Record<Outcome, number> {
  const counts: Record<Outcome, number> = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) counts[t.outcome]++;
  return counts;
}

/**
 * `previous` (the package's stored report, if any) with `server`'s run
 * replaced by `run`: that server's column of every row is rewritten.
 */
export function mergeRun(
  previous: PackageReport | undefined,
  name: string,
  server: ServerName,
  run: PackageRun,
): PackageReport {
  const { tests, ...rest } = run;
  const report: PackageReport = previous ?? { package: name, runs: {}, tests: [] };
  report.runs[server] = { ...rest, counts: countOutcomes(tests) };
  const rows = new Map(report.tests.map((row) => [row.name, row]));
  for (const row of rows.values()) {
    delete row[server];
    delete row[`${server}Failure`];
  }
  for (const t of tests) {
    const row = rows.get(t.name) ?? { name: t.name };
    row[server] = t.outcome;
    if (t.failure) row[`${server}Failure`] = t.failure;
    rows.set(t.name, row);
  }
  report.tests = [...rows.values()].filter((row) => row.watchmark || row.reference || row.referenceExisting);
  return report;
}

/** The summary counts over `packages`, overall and per package. */
export function summarise(packages: PackageReport[]): Pick<Report, 'summary' | 'summaryByPackage'> {
  const summary = { ...emptyCounts(), tests: 0 };
  const summaryByPackage: Record<string, Record<Category, number>> = {};
  for (const p of packages) {
    const mine = emptyCounts();
    for (const row of p.tests) {
      const c = categorise(row);
      mine[c]++;
      summary[c]++;
      summary.tests++;
    }
    summaryByPackage[p.package] = mine;
  }
  return { summary, summaryByPackage };
}

/** Sets each failed row's `cause` and counts the tests each cause explains. */
export function attachCauses(packages: PackageReport[]): Report['causes'] {
  const causes: Report['causes'] = {};
  for (const c of [...CAUSES, SUBTEST_FAILED])
    causes[c.id] = { text: c.text, onPurpose: c.onPurpose, onlyReference: 0, other: 0 };
  for (const p of packages) {
    const failed = new Set(
      p.tests.filter((r) => r.watchmark === 'failed' || r.reference === 'failed').map((r) => r.name),
    );
    for (const row of p.tests) {
      delete row.cause;
      if (row.watchmark !== 'failed' && row.reference !== 'failed') continue;
      const message = (row.watchmark === 'failed' ? row.watchmarkFailure : row.referenceFailure) ?? '';
      const cause = causeOf(row.name, message, failed);
      if (!cause) continue;
      row.cause = cause.id;
      causes[cause.id][categorise(row) === 'onlyReference' ? 'onlyReference' : 'other']++;
    }
  }
  for (const [id, c] of Object.entries(causes)) if (c.onlyReference + c.other === 0) delete causes[id];
  return causes;
}

/** A one-line-per-package table for the terminal. */
export function formatTable(report: Report): string {
  const head = [
    'package',
    'both pass',
    'only ref',
    'only wm',
    'neither',
    'skipped',
    'wm s',
    'ref s',
    'ref-ex s',
  ];
  const rows = report.packages.map((p) => {
    const c = report.summaryByPackage[p.package];
    const secs = (s: ServerName) => {
      const run = p.runs[s];
      return run ? `${run.seconds}${run.end === 'completed' ? '' : ` (${run.end})`}` : '-';
    };
    return [
      p.package,
      c.bothPass,
      c.onlyReference,
      c.onlyWatchmark,
      c.neither,
      c.skippedOnBoth,
      secs('watchmark'),
      secs('reference'),
      secs('referenceExisting'),
    ].map(String);
  });
  const s = report.summary;
  rows.push(
    ['total', s.bothPass, s.onlyReference, s.onlyWatchmark, s.neither, s.skippedOnBoth, '', '', ''].map(
      String,
    ),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [head, ...rows].map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ')).join('\n');
}
