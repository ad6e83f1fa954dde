/**
 * One run of one controller-runtime test binary against one server, with a
 * timeout: ginkgo's own (`--ginkgo.timeout`, so an overrun still writes its
 * JUnit report and runs AfterSuite, which stops envtest's processes), Go's
 * `-test.timeout` a little later, and a kill of the whole process tree later
 * still. Prints a progress line every `progressEverySeconds`.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseGinkgoJunit, parseGoTestVerbose, type TestResult } from './parse.js';
import { spawnOwned, stopTree } from './processes.js';

/** How a package run ended, beside its tests' results. */
/**
 * How a package run ended: `crashed` is a ginkgo suite that died without its JUnit report (a
 * panic in a goroutine without GinkgoRecover, as pkg/webhook's tests do when their webhook
 * server cannot listen).
 */
export type RunEnd = 'completed' | 'timeout' | 'crashed' | 'server-failed';

/** What one package run on one server gave. */
export interface PackageRun {
  end: RunEnd;
  exitCode: number | null;
  seconds: number;
  tests: TestResult[];
  /** Why the run has no results, or the last lines of output when it ended badly. */
  note?: string;
  /** 2 when the first attempt crashed (see {@link RunEnd}). */
  attempts?: number;
  /** For a run against watchmark: the commit its sources were at. */
  watchmarkAt?: string;
}

/** What to run, where. */
export interface RunSpec {
  binary: string;
  /** The package's source folder: its tests read ./testdata from there. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether the package has a ginkgo suite (then `--ginkgo.*` flags are passed). */
  ginkgo: boolean;
  /** ginkgo's random seed: the same on both servers, so specs run in the same order. */
  seed: number;
  timeoutSeconds: number;
  /** A folder of this run's own for the JUnit report and the output log. */
  workDir: string;
  /** Prefix of the progress lines. */
  label: string;
  progressEverySeconds?: number;
}

/** The last `n` non-empty lines of `text`. */
function tail(text: string, n: number): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');
}

/** Runs the binary and collects its per-test results. */
export async function runBinary(spec: RunSpec): Promise<PackageRun> {
  const junit = join(spec.workDir, 'junit.xml');
  const logFile = join(spec.workDir, 'output.log');
  const args = ['-test.v', `-test.timeout=${spec.timeoutSeconds + 30}s`];
  if (spec.ginkgo) {
    args.push(
      `-ginkgo.junit-report=${junit}`,
      `-ginkgo.timeout=${spec.timeoutSeconds}s`,
      `-ginkgo.seed=${spec.seed}`,
      '-ginkgo.no-color',
    );
  }
  const started = performance.now();
  const log = createWriteStream(logFile);
  const chunks: string[] = [];
  const child = spawnOwned(spec.binary, args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (text: string) => {
      chunks.push(text);
      log.write(text);
    });
  }
  const elapsed = () => Math.round((performance.now() - started) / 1000);
  const progress = setInterval(
    () =>
      process.stderr.write(`[cr ${new Date().toISOString().slice(11, 19)}] ${spec.label}: ${elapsed()} s\n`),
    (spec.progressEverySeconds ?? 60) * 1000,
  );
  let timedOut = false;
  const killer = setTimeout(
    () => {
      timedOut = true;
      void stopTree(child, 5_000);
    },
    (spec.timeoutSeconds + 60) * 1000,
  );
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(killer);
  clearInterval(progress);
  await new Promise<void>((resolve) => log.end(resolve));
  // envtest's kube-apiserver and etcd are stopped by AfterSuite; a crashed suite may leave them.
  await stopTree(child, 1_000);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const output = chunks.join('');
  const tests = parseGoTestVerbose(output);
  const reported = existsSync(junit);
  if (spec.ginkgo && reported) tests.push(...parseGinkgoJunit(await readFile(junit, 'utf8')));
  const overran = timedOut || /Ginkgo timed out|panic: test timed out/.test(output);
  const crashed = spec.ginkgo && !reported;
  const end: RunEnd = overran ? 'timeout' : crashed ? 'crashed' : 'completed';
  const run: PackageRun = { end, exitCode, seconds, tests };
  if (overran || tests.length === 0 || (exitCode !== 0 && !tests.some((t) => t.outcome === 'failed'))) {
    run.note = panicOf(output) ?? tail(output, 8);
  }
  return run;
}

/** A panic's first lines (what failed, and where), without terminal colours. */
function panicOf(output: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what it removes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = plain.split('\n');
  // ginkgo's progress dots may stand before it on the line.
  const at = lines.findIndex((l) => l.includes('panic: '));
  if (at < 0) return undefined;
  const first = lines[at].slice(lines[at].indexOf('panic: '));
  return [first, ...lines.slice(at + 1, at + 3)].map((l) => l.trim()).join('\n');
}
