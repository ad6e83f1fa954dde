/**
 * The runner examples (examples/testing/) run as a user runs them: vitest,
 * jest and node:test each started in a child process on its folder, with
 * parallel workers. Each must pass every test, and the examples' worker
 * report (examples/testing/worker-report.ts) must show at least two workers
 * whose files ran at the same time. The three run at once (they are
 * child processes: this file only waits), about 25 CPU-seconds in all.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerRecord } from '../../examples/testing/worker-report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = join(ROOT, 'examples/testing');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'watchmark-runners-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  workers: WorkerRecord[];
}

/** Runs `node args` at the repository root; the runner under test must not think it runs inside vitest. */
async function run(name: string, args: string[]): Promise<Run> {
  const report = join(dir, `${name}.jsonl`);
  const env: NodeJS.ProcessEnv = { ...process.env, WATCHMARK_RUNNER_REPORT: report, FORCE_COLOR: '0' };
  for (const key of Object.keys(env)) if (/^(__)?VITEST/.test(key) || key === 'NODE_OPTIONS') delete env[key];
  env.NODE_ENV = undefined;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr += s;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const text = await readFile(report, 'utf8').catch(() => '');
  const workers = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WorkerRecord);
  return { code, stdout, stderr, workers };
}

/** Files of the folder that are tests. */
async function testFiles(folder: string): Promise<string[]> {
  return (await readdir(join(EXAMPLES, folder))).filter((f) => f.endsWith('.test.ts')).sort();
}

/** Every test file reported, by at least two workers, two of whose files overlapped in time. */
async function expectParallel(folder: string, workers: WorkerRecord[]): Promise<void> {
  expect(workers.map((w) => w.file).sort()).toEqual(await testFiles(folder));
  const id = (w: WorkerRecord) => `${w.pid}:${w.threadId}`;
  expect(new Set(workers.map(id)).size).toBeGreaterThanOrEqual(2);
  const overlapping = workers.some((a) =>
    workers.some((b) => id(a) !== id(b) && a.start < b.end && b.start < a.end),
  );
  expect(overlapping, JSON.stringify(workers)).toBe(true);
}

const failed = (r: Run) => `exit ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`;

describe.concurrent('runner examples', () => {
  it('vitest: per-file, per-test and test.extend clusters in worker threads', async () => {
    const r = await run('vitest', [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      join(EXAMPLES, 'vitest/vitest.config.ts'),
      '--reporter=json',
    ]);
    expect(r.code, failed(r)).toBe(0);
    const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    expect({ passed: json.numPassedTests, failed: json.numFailedTests }).toEqual({ passed: 6, failed: 0 });
    await expectParallel('vitest', r.workers);
  }, 120_000);

  it('jest: per-file and per-test clusters and the operator suite, --maxWorkers=2', async () => {
    const r = await run('jest', [
      join(ROOT, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(EXAMPLES, 'jest/jest.config.mjs'),
      '--maxWorkers=2',
      '--ci',
      '--json',
    ]);
    expect(r.code, failed(r)).toBe(0);
    const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    expect({ passed: json.numPassedTests, failed: json.numFailedTests }).toEqual({ passed: 16, failed: 0 });
    await expectParallel('jest', r.workers);
  }, 120_000);

  it('node:test: per-file and per-test clusters and the operator suite, --test-concurrency=2', async () => {
    const files = (await testFiles('node-test')).map((f) => join(EXAMPLES, 'node-test', f));
    const r = await run('node-test', [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=tap',
      ...files,
    ]);
    expect(r.code, failed(r)).toBe(0);
    const count = (label: string) => Number(r.stdout.match(new RegExp(`^# ${label} (\\d+)$`, 'm'))?.[1]);
    expect({ passed: count('pass'), failed: count('fail') }).toEqual({ passed: 16, failed: 0 });
    await expectParallel('node-test', r.workers);
  }, 120_000);
});
