/**
 * `npm run conformance`: Kubernetes' own conformance tests (e2e.test of the
 * reference release) against watchmark and against the reference control
 * plane in the same run; writes docs/conformance.md and
 * bench/results/conformance.json.
 *
 *   npm run conformance                          every applicable test on both servers, report written
 *   npm run conformance -- --only REGEX          the applicable tests whose name matches; prints, writes nothing
 *   npm run conformance -- --server watchmark    one server only (with --only)
 *   npm run conformance -- --shards N            e2e.test processes side by side per server (default 3)
 *   npm run conformance -- --timeout S           ginkgo stops a test after S seconds (default 300)
 *   npm run conformance -- --list                each conformance test with whether it runs here, and why not
 *   npm run conformance -- --render              docs/conformance.md again from the committed results (causes.yaml and
 *                                                controller-runtime's results read again), no run
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findReferenceBinaries } from '../../src/process/index.js';
import { readCatalogue } from './catalogue.js';
import type { Report as ControllerRuntimeReport } from './controller-runtime/report.js';
import { findE2eTest } from './e2e-binary.js';
import { readNeeds } from './needs.js';
import { buildReport, renderMarkdown, reportFromJson } from './report.js';
import { runOnServer, type ServerRun } from './run.js';
import type { ServerName } from './servers.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const args = process.argv.slice(2);

function flag(name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The committed controller-runtime results (test/conformance/controller-runtime/main.ts writes them). */
function readControllerRuntime(): ControllerRuntimeReport | undefined {
  const path = join(repo, 'bench/results/controller-runtime.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ControllerRuntimeReport) : undefined;
}

async function main(): Promise<number> {
  const catalogue = readCatalogue();
  const needs = readNeeds(catalogue, join(here, 'needs.yaml'));
  if (args.includes('--render')) {
    const json = JSON.parse(readFileSync(join(repo, 'bench/results/conformance.json'), 'utf8'));
    const report = reportFromJson(json, join(here, 'causes.yaml'));
    writeFileSync(join(repo, 'bench/results/conformance.json'), `${JSON.stringify(report.json, null, 2)}\n`);
    writeFileSync(join(repo, 'docs/conformance.md'), renderMarkdown(report, readControllerRuntime()));
    process.stderr.write(
      `${report.summaryLine}\nwrote docs/conformance.md from bench/results/conformance.json\n`,
    );
    return 0;
  }
  if (args.includes('--list')) {
    for (const t of catalogue)
      process.stdout.write(
        `${needs.get(t.name) ? 'n/a ' : 'run '} ${t.name}${needs.get(t.name) ? `  -- ${needs.get(t.name)}` : ''}\n`,
      );
    return 0;
  }
  const e2eTest = findE2eTest();
  const binaries = findReferenceBinaries();
  if (!e2eTest || !binaries) {
    process.stderr.write(
      'error: build the reference first: bash reference/build.sh && bash reference/e2e.sh\n',
    );
    return 2;
  }
  const only = flag('--only');
  const onlyRe = only ? new RegExp(only) : undefined;
  const names = catalogue
    .filter((t) => !needs.get(t.name) && (!onlyRe || onlyRe.test(t.name)))
    .map((t) => t.name);
  if (names.length === 0) {
    process.stderr.write(`error: no applicable conformance test matches ${only}\n`);
    return 2;
  }
  const servers: ServerName[] = flag('--server')
    ? [flag('--server') as ServerName]
    : ['reference', 'watchmark'];
  if (servers.some((s) => s !== 'watchmark' && s !== 'reference')) {
    process.stderr.write('error: --server is watchmark or reference\n');
    return 2;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'watchmark-conformance-'));
  const log = (line: string) =>
    process.stderr.write(`[conformance ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  log(
    `${names.length} of ${catalogue.length} conformance tests on ${servers.join(' and ')}; logs in ${workDir}`,
  );
  const shards = Number(flag('--shards') ?? 3);
  const runs: ServerRun[] = await Promise.all(
    servers.map((server) =>
      runOnServer(server, {
        repo,
        e2eTest,
        kubectl: binaries.kubectl,
        names,
        workDir,
        shards,
        timeoutSeconds: Number(flag('--timeout') ?? 300),
        log,
      }),
    ),
  );
  const report = buildReport(catalogue, needs, runs, join(here, 'causes.yaml'));
  if (only || servers.length < 2) {
    // A partial run: what each server did with the tests asked for, not the whole catalogue.
    for (const run of runs) {
      const states = [...run.results.values()].map((r) => r.state);
      const passed = states.filter((x) => x === 'passed').length;
      process.stderr.write(`${run.server}: ${passed} of ${states.length} passed (${run.seconds} s)\n`);
    }
  } else process.stderr.write(`${report.summaryLine}\n`);
  // Every test only the reference passes is fixed, or named in causes.yaml with its cause.
  const unexplained = report.tests.filter((x) => x.category === 'only reference' && !x.cause);
  for (const t of unexplained) {
    const failure = (t.watchmark?.failure ?? '').split('\n').join('\n  ');
    process.stderr.write(`ONLY REFERENCE, NO CAUSE IN causes.yaml: ${t.name}\n  ${failure}\n`);
  }
  writeFileSync(join(workDir, 'report.json'), `${JSON.stringify(report.json, null, 2)}\n`);
  if (!only && servers.length === 2) {
    writeFileSync(join(repo, 'bench/results/conformance.json'), `${JSON.stringify(report.json, null, 2)}\n`);
    writeFileSync(join(repo, 'docs/conformance.md'), renderMarkdown(report, readControllerRuntime()));
    log('wrote docs/conformance.md and bench/results/conformance.json');
    rmSync(workDir, { recursive: true, force: true });
  }
  // A partial run fails when a test it ran did not pass; a full one when a failure has no cause.
  const partialFailed =
    (only || servers.length < 2) &&
    runs.some((r) => [...r.results.values()].some((x) => x.state !== 'passed'));
  return unexplained.length > 0 || partialFailed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
