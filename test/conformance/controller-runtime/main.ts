/**
 * Runs controller-runtime's own envtest-based test suites against watchmark
 * and against the reference kube-apiserver, and writes per-test results to
 * bench/results/controller-runtime.json.
 *
 *   npx tsx test/conformance/controller-runtime/main.ts [--only pkg/client]... \
 *     [--server watchmark|reference|reference-existing|both|all] [--timeout 900] [--cli tsx|dist] [--at REF] [--seed 1]
 *   npx tsx test/conformance/controller-runtime/main.ts --rewrite   (causes and summary again, no run)
 *
 * - watchmark: a fresh `watchmark serve` per package (envtest-shaped: no
 *   controller manager, ServiceAccount admission off), then the binary with
 *   USE_EXISTING_CLUSTER=true and KUBECONFIG, so envtest uses that server.
 * - reference: the binary with KUBEBUILDER_ASSETS=<reference bin folder>, so
 *   envtest starts the reference kube-apiserver and etcd itself.
 * - reference-existing (not in `both`): the reference started once per package
 *   like watchmark (envtest's flags) and used as watchmark is, through
 *   USE_EXISTING_CLUSTER: what fails there too is the harness, not watchmark.
 * Each binary runs in its package's source folder (tests read ./testdata).
 * The binaries come from reference/controller-runtime.sh; logs stay in a
 * temporary folder printed at the end. `--at REF` runs watchmark from that
 * commit's sources (a snapshot), not from the working tree.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  findReferenceBinaries,
  REFERENCE_RELEASE,
  startReferenceServer,
} from '../../../src/process/index.js';
import { buildTestBinaries, readPackages, type TestPackage } from './packages.js';
import { stopAll } from './processes.js';
import {
  attachCauses,
  formatTable,
  mergeRun,
  type PackageReport,
  type Report,
  SERVERS,
  type ServerName,
  summarise,
} from './report.js';
import { type PackageRun, runBinary } from './run-binary.js';
import { snapshotSources } from './snapshot.js';
import { type CliSource, startWatchmark } from './watchmark-serve.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CONTROLLER_RUNTIME = 'v0.25.3';

const say = (line: string) =>
  process.stderr.write(`[cr ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Options {
  only: string[];
  servers: ServerName[];
  timeoutSeconds: number;
  cli: CliSource;
  /** A commit to run watchmark from instead of the working tree. */
  at?: string;
  out: string;
  /** ginkgo's random seed for every suite. */
  seed: number;
  /** Only rewrite the existing results (causes, summary) without running anything. */
  rewrite: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true },
      server: { type: 'string', default: 'both' },
      timeout: { type: 'string', default: '900' },
      cli: { type: 'string', default: 'tsx' },
      at: { type: 'string' },
      out: { type: 'string', default: join(REPO, 'bench/results/controller-runtime.json') },
      seed: { type: 'string', default: '1' },
      rewrite: { type: 'boolean', default: false },
    },
  });
  const server = values.server as string;
  const choices: Record<string, ServerName[]> = {
    watchmark: ['watchmark'],
    reference: ['reference'],
    'reference-existing': ['referenceExisting'],
    both: [...SERVERS],
    all: [...SERVERS, 'referenceExisting'],
  };
  if (!(server in choices)) throw new Error(`--server ${server}?`);
  if (values.cli !== 'tsx' && values.cli !== 'dist') throw new Error(`--cli ${values.cli}?`);
  if (values.at !== undefined && values.cli === 'dist')
    throw new Error('--at runs the sources: not with --cli dist');
  return {
    only: (values.only ?? []).flatMap((o) => o.split(',')),
    servers: choices[server],
    timeoutSeconds: Number(values.timeout),
    cli: values.cli,
    at: values.at,
    out: resolve(values.out as string),
    seed: Number(values.seed),
    rewrite: values.rewrite === true,
  };
}

/** The commit the watchmark sources are at, marked when src/ has uncommitted changes. */
function watchmarkVersion(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--', 'src') !== '';
  return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/' : ''}`;
}

function withoutEnv(names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

/** Where each server's runs come from: the reference's bin folder, watchmark's sources. */
interface Sources {
  referenceBin: string;
  /** The folder `src/cli/main.ts` (or dist/) is run from. */
  watchmarkRoot: string;
  /** The commit those sources are at (marked when uncommitted edits take part). */
  watchmarkAt: () => string;
}

/** A server the binary uses through its kubeconfig. */
interface ExistingCluster {
  kubeconfig: string;
  stop(): Promise<void>;
}

/** The reference control plane in envtest's shape, started as a cluster of its own. */
async function startReferenceCluster(): Promise<ExistingCluster> {
  const reference = await startReferenceServer({ profile: 'envtest', log: null });
  return { kubeconfig: reference.kubeconfigPath, stop: () => reference.close() };
}

async function runOn(
  server: ServerName,
  pkg: TestPackage,
  o: Options,
  logRoot: string,
  sources: Sources,
): Promise<PackageRun> {
  const workDir = join(logRoot, pkg.name.replaceAll('/', '-'), server);
  await mkdir(workDir, { recursive: true });
  const label = `${pkg.name} on ${server}`;
  const spec = {
    binary: pkg.binary,
    cwd: pkg.sourceDir,
    ginkgo: pkg.ginkgo,
    seed: o.seed,
    timeoutSeconds: o.timeoutSeconds,
    workDir,
    label,
  };
  if (server === 'reference') {
    const env = {
      ...withoutEnv(['KUBECONFIG', 'USE_EXISTING_CLUSTER']),
      KUBEBUILDER_ASSETS: sources.referenceBin,
    };
    return runBinary({ ...spec, env });
  }
  let serve: ExistingCluster;
  const started = performance.now();
  try {
    serve =
      server === 'watchmark'
        ? await startWatchmark(sources.watchmarkRoot, o.cli, workDir, join(workDir, 'watchmark.log'))
        : await startReferenceCluster();
  } catch (err) {
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    return { end: 'server-failed', exitCode: null, seconds, tests: [], note: (err as Error).message };
  }
  say(`${label}: server ready in ${Math.round(performance.now() - started)} ms`);
  try {
    const env = {
      ...withoutEnv(['KUBEBUILDER_ASSETS']),
      USE_EXISTING_CLUSTER: 'true',
      KUBECONFIG: serve.kubeconfig,
    };
    return await runBinary({ ...spec, env });
  } finally {
    await serve.stop();
  }
}

async function main(): Promise<void> {
  const o = options();
  const reference = findReferenceBinaries();
  if (!reference && o.servers.some((s) => s !== 'watchmark') && !o.rewrite) {
    throw new Error('the reference binaries are not built: run reference/build.sh first');
  }
  let packages = o.rewrite ? [] : await readPackages(await buildTestBinaries(REPO));
  if (o.only.length > 0) {
    const unknown = o.only.filter((name) => !packages.some((p) => p.name === name));
    if (unknown.length > 0) throw new Error(`no test binary for ${unknown.join(', ')}`);
    packages = packages.filter((p) => o.only.includes(p.name));
  }
  const previous: Report | undefined = existsSync(o.out)
    ? JSON.parse(await readFile(o.out, 'utf8'))
    : undefined;
  const byName = new Map<string, PackageReport>((previous?.packages ?? []).map((p) => [p.package, p]));
  const logRoot = o.rewrite ? '' : await mkdtemp(join(tmpdir(), 'watchmark-controller-runtime-'));
  if (!o.rewrite) say(`${packages.length} packages on ${o.servers.join(' and ')}; logs in ${logRoot}`);
  const snapshot = o.at !== undefined && packages.length > 0 ? await snapshotSources(REPO, o.at) : undefined;
  if (snapshot) say(`watchmark from ${o.at} (${snapshot.commit}) in ${snapshot.dir}`);
  const sources: Sources = {
    referenceBin: reference?.dir ?? '',
    watchmarkRoot: snapshot?.dir ?? REPO,
    watchmarkAt: () => snapshot?.commit ?? watchmarkVersion(),
  };
  const report = (): Report => {
    const all = [...byName.values()].sort((a, b) => a.package.localeCompare(b.package));
    const versions = new Set(all.map((p) => p.runs.watchmark?.watchmarkAt).filter((v) => v !== undefined));
    return {
      generatedAt: o.rewrite && previous ? previous.generatedAt : new Date().toISOString(),
      controllerRuntime: CONTROLLER_RUNTIME,
      ginkgoSeed: o.rewrite && previous ? previous.ginkgoSeed : o.seed,
      reference: `kube-apiserver ${REFERENCE_RELEASE.kube}, etcd ${REFERENCE_RELEASE.etcd}`,
      // Results of an older runner have no per-run commit: the file's own line stays.
      watchmark: versions.size > 0 ? [...versions].join('; ') : (previous?.watchmark ?? ''),
      ...summarise(all),
      causes: attachCauses(all),
      packages: all,
    };
  };
  try {
    for (const pkg of packages) {
      for (const server of o.servers) {
        say(`${pkg.name} on ${server}: start`);
        const at = server === 'watchmark' ? sources.watchmarkAt() : undefined;
        let run = await runOn(server, pkg, o, logRoot, sources);
        if (run.end === 'crashed') {
          // controller-runtime's own flakes (a webhook port not yet free) crash a suite now and
          // then, on either server: once more, and the file says so.
          say(`${pkg.name} on ${server}: crashed (${run.note?.split('\n')[0]}); once more`);
          run = { ...(await runOn(server, pkg, o, `${logRoot}/retry`, sources)), attempts: 2 };
        }
        if (at !== undefined) run.watchmarkAt = at;
        const c = { passed: 0, failed: 0, skipped: 0 };
        for (const t of run.tests) c[t.outcome]++;
        say(
          `${pkg.name} on ${server}: ${run.end} in ${run.seconds} s (exit ${run.exitCode}): ` +
            `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`,
        );
        if (run.note && run.tests.length === 0) say(`${pkg.name} on ${server}: ${run.note}`);
        byName.set(pkg.name, mergeRun(byName.get(pkg.name), pkg.name, server, run));
        await writeFile(o.out, `${JSON.stringify(report(), null, 2)}\n`);
      }
    }
  } finally {
    await snapshot?.remove();
  }
  const final = report();
  await writeFile(o.out, `${JSON.stringify(final, null, 2)}\n`);
  process.stdout.write(`${formatTable(final)}\n\nresults: ${o.out}\n${logRoot ? `logs: ${logRoot}\n` : ''}`);
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    say(`${sig}: stopping children`);
    void stopAll().then(() => process.exit(130));
  });
}

main().catch(async (err) => {
  say(`failed: ${(err as Error).stack ?? err}`);
  await stopAll();
  process.exit(1);
});
