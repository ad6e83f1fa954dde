/**
 * Runs Kubernetes' e2e.test against one server: the framework flags that let
 * it drive a control plane without kubelets (kube-reference.md, "Kubernetes
 * e2e against any server"), a focus naming exactly the tests asked for, and
 * ginkgo's JSON report read back into one result per test.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One test's outcome on one server. */
export interface E2eResult {
  /** passed, failed, skipped, timedout, interrupted, panicked, pending, or `not-run` when the process died first. */
  state: string;
  /** Seconds the spec ran. */
  seconds: number;
  /** The failure's first lines, for a test that did not pass. */
  failure?: string;
}

/** Where and how to run. */
export interface E2eRun {
  e2eTest: string;
  kubeconfig: string;
  kubectl: string;
  /** Exact ginkgo full texts. */
  names: string[];
  /** A fresh folder for the report and the log. */
  workDir: string;
  /** Ginkgo interrupts the run after this long (the report still comes). */
  timeoutSeconds: number;
  /** One line per finished test, and every `progressMs` how many have finished. */
  log?: (line: string) => void;
  progressMs?: number;
}

/** Go regexp syntax: everything but letters, digits and spaces escaped. */
function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** The command-line arguments of e2e.test for a run (exported for the report's "how it ran"). */
export function e2eArgs(run: Omit<E2eRun, 'log' | 'e2eTest'>, reportFile: string): string[] {
  const focus = run.names.map((n) => `(?:^|\\s)${quoteMeta(n)}$`).join('|');
  return [
    `--kubeconfig=${run.kubeconfig}`,
    '--provider=skeleton',
    '--e2e-verify-service-account=false',
    '--allowed-not-ready-nodes=-1',
    '--num-nodes=1',
    `--kubectl-path=${run.kubectl}`,
    `--e2e-output-dir=${run.workDir}`,
    `--ginkgo.focus=${focus}`,
    `--ginkgo.json-report=${reportFile}`,
    `--ginkgo.timeout=${run.timeoutSeconds}s`,
    '--ginkgo.no-color',
    // Each spec's steps as they happen: a test that hangs shows where.
    '--ginkgo.v',
    '--ginkgo.grace-period=10s',
  ];
}

interface GinkgoSpec {
  ContainerHierarchyTexts: string[] | null;
  LeafNodeText: string;
  LeafNodeType: string;
  State: string;
  RunTime: number;
  Failure?: { Message?: string };
}

/** Runs e2e.test once and returns a result for every name asked (`not-run` for any the report lacks). */
export async function runE2e(run: E2eRun): Promise<Map<string, E2eResult>> {
  const reportFile = join(run.workDir, 'report.json');
  const logFile = join(run.workDir, 'e2e.log');
  const out = openSync(logFile, 'a');
  const started = Date.now();
  const exit = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(run.e2eTest, e2eArgs(run, reportFile), {
      stdio: ['ignore', out, out],
      env: { ...process.env, KUBECONFIG: run.kubeconfig },
    });
    // Ginkgo's own timeout interrupts the suite; this is only for a hung process.
    const killer = setTimeout(() => child.kill('SIGKILL'), (run.timeoutSeconds + 60) * 1000);
    // Ginkgo prints a bullet as each spec ends (the JSON report comes only at the end).
    const progress = setInterval(() => {
      const ended = (readFileSync(logFile, 'utf8').match(/•/g) ?? []).length;
      run.log?.(
        `${ended}/${run.names.length} ended after ${Math.round((Date.now() - started) / 1000)} s (${logFile})`,
      );
    }, run.progressMs ?? 60_000);
    child.once('error', (err) => {
      clearTimeout(killer);
      clearInterval(progress);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(killer);
      clearInterval(progress);
      resolve(code);
    });
  });
  closeSync(out);
  const results = new Map<string, E2eResult>();
  if (existsSync(reportFile)) {
    const reports = JSON.parse(readFileSync(reportFile, 'utf8')) as Array<{
      SpecReports: GinkgoSpec[] | null;
    }>;
    for (const spec of reports.flatMap((r) => r.SpecReports ?? [])) {
      if (spec.LeafNodeType !== 'It') continue;
      const name = [...(spec.ContainerHierarchyTexts ?? []), spec.LeafNodeText]
        .filter((t) => t !== '')
        .join(' ');
      if (!run.names.includes(name)) continue;
      const result: E2eResult = { state: spec.State, seconds: Math.round(spec.RunTime / 1e7) / 100 };
      if (spec.State !== 'passed' && spec.State !== 'skipped' && spec.Failure?.Message) {
        result.failure = spec.Failure.Message.split('\n').slice(0, 6).join('\n').slice(0, 800);
      }
      results.set(name, result);
      run.log?.(`${result.state.padEnd(8)} ${result.seconds.toFixed(1).padStart(6)} s  ${name}`);
    }
  }
  for (const name of run.names) {
    if (!results.has(name)) {
      results.set(name, {
        state: 'not-run',
        seconds: 0,
        failure: `e2e.test exited ${exit} after ${Math.round((Date.now() - started) / 1000)} s without reporting it; see ${logFile}`,
      });
    }
  }
  return results;
}
