/**
 * Kubernetes' conformance tests in the suite: the fastest 100 (all, while fewer) of those that pass on both servers in
 * the committed full run (bench/results/conformance.json, written by `npm run conformance`), run
 * by the real e2e.test against `watchmark serve` started from the sources as a user starts it.
 * Each must pass. The reference is not started here: its results are the committed run's.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findReferenceBinaries, REFERENCE_RELEASE } from '../../src/process/index.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { requireTool } from '../helpers/tools.js';
import { findE2eTest } from './e2e-binary.js';
import { runE2e } from './e2e-run.js';
import { startWatchmarkServe } from './servers.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');

/** How many tests CI runs, and in how many e2e.test processes side by side. */
const CI_TESTS = 100;
const SHARDS = 3;

interface CommittedTest {
  name: string;
  category: string;
  watchmark?: { seconds: number };
}

/** The CI subset: passing on both servers, neither `[Serial]` nor `[Slow]`, fastest first on watchmark. */
function ciSubset(tests: CommittedTest[], count = CI_TESTS): string[] {
  return tests
    .filter((t) => t.category === 'both pass' && !t.name.includes('[Serial]') && !t.name.includes('[Slow]'))
    .sort((a, b) => (a.watchmark?.seconds ?? 0) - (b.watchmark?.seconds ?? 0) || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((t) => t.name);
}

const e2eTest = findE2eTest();
const available = requireTool(
  `Kubernetes' e2e.test ${REFERENCE_RELEASE.kube} (build it: bash reference/build.sh && bash reference/e2e.sh)`,
  e2eTest !== undefined && findReferenceBinaries() !== undefined,
);

describe.skipIf(!available)('Kubernetes conformance tests against watchmark serve', () => {
  const tempDir = tempDirForFile('watchmark-conformance-');
  const committed = JSON.parse(readFileSync(join(repo, 'bench/results/conformance.json'), 'utf8')) as {
    tests: CommittedTest[];
  };
  const names = ciSubset(committed.tests);

  it(`passes the ${names.length} fastest tests both servers pass`, { timeout: 900_000 }, async () => {
    expect(names.length).toBeGreaterThanOrEqual(50);
    const server = await startWatchmarkServe(repo, tempDir(), 'tsx');
    try {
      const shards: string[][] = Array.from({ length: SHARDS }, () => []);
      for (const [i, n] of names.entries()) shards[i % SHARDS]?.push(n);
      const runs = await Promise.all(
        shards.map(async (shard, i) =>
          runE2e({
            e2eTest: e2eTest as string,
            kubeconfig: server.kubeconfig,
            kubectl: (findReferenceBinaries() as { kubectl: string }).kubectl,
            names: shard,
            workDir: await shardDir(join(tempDir(), `shard-${i}`)),
            timeoutSeconds: 780,
          }),
        ),
      );
      const failed = runs
        .flatMap((m) => [...m])
        .filter(([, r]) => r.state !== 'passed')
        .map(([name, r]) => `${name}: ${r.state}: ${r.failure ?? ''}`);
      const seconds = runs.flatMap((m) => [...m.values()]).reduce((s, r) => s + r.seconds, 0);
      console.log(
        `conformance: ${names.length - failed.length} of ${names.length} passed (${seconds.toFixed(0)} s of tests)`,
      );
      expect(failed).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

async function shardDir(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  return path;
}
