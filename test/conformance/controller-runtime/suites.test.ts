/**
 * controller-runtime v0.25.3's own envtest suites in the test suite: two packages that pass
 * whole on both servers in the committed full run (bench/results/controller-runtime.json,
 * written by `npx tsx test/conformance/controller-runtime/main.ts`), each run by its real test
 * binary against a fresh `watchmark serve` through envtest's existing-cluster option. Every test
 * the reference passes must pass.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceCacheDir } from '../../../src/process/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { requireTool } from '../../helpers/tools.js';
import { readPackages } from './packages.js';
import { runBinary } from './run-binary.js';
import { startWatchmark } from './watchmark-serve.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The two packages CI runs: the cache's (informers, 311 tests) and the builder's suites, whole on both servers. */
const CI_PACKAGES = ['pkg/cache', 'pkg/builder'];

const binDir = join(referenceCacheDir(), 'controller-runtime', 'bin');
const available = requireTool(
  "controller-runtime v0.25.3's test binaries (build them: bash reference/controller-runtime.sh)",
  existsSync(join(referenceCacheDir(), 'controller-runtime', 'complete')) &&
    existsSync(join(binDir, 'packages.tsv')),
);

interface CommittedPackage {
  package: string;
  tests: Array<{ name: string; reference: string; watchmark: string }>;
}

describe.skipIf(!available)("controller-runtime's own suites against watchmark serve", () => {
  const tempDir = tempDirForFile('watchmark-controller-runtime-');
  const committed = JSON.parse(readFileSync(join(repo, 'bench/results/controller-runtime.json'), 'utf8')) as {
    packages: CommittedPackage[];
  };

  for (const name of CI_PACKAGES) {
    it(`${name}: every test the reference passes passes`, { timeout: 600_000 }, async () => {
      const pkg = (await readPackages(binDir)).find((p) => p.name === name);
      expect(pkg, `${name} in ${binDir}/packages.tsv`).toBeDefined();
      const work = join(tempDir(), name.replaceAll('/', '-'));
      await mkdir(work, { recursive: true });
      const server = await startWatchmark(repo, 'tsx', work, join(work, 'watchmark.log'));
      try {
        const run = await runBinary({
          binary: pkg!.binary,
          cwd: pkg!.sourceDir,
          env: { ...process.env, USE_EXISTING_CLUSTER: 'true', KUBECONFIG: server.kubeconfig },
          ginkgo: pkg!.ginkgo,
          seed: 1,
          timeoutSeconds: 480,
          workDir: work,
          label: `controller-runtime ${name}`,
        });
        const passedOnReference = new Set(
          committed.packages
            .find((p) => p.package === name)
            ?.tests.filter((t) => t.reference === 'passed')
            .map((t) => t.name),
        );
        expect(passedOnReference.size, `${name} in bench/results/controller-runtime.json`).toBeGreaterThan(0);
        const failed = run.tests
          .filter((t) => t.outcome === 'failed' && passedOnReference.has(t.name))
          .map((t) => `${t.name}: ${t.failure ?? ''}`);
        const passed = run.tests.filter((t) => t.outcome === 'passed').length;
        console.log(
          `controller-runtime ${name}: ${passed} passed on watchmark in ${run.seconds} s (${run.end})`,
        );
        expect(run.end, run.note).toBe('completed');
        expect(failed).toEqual([]);
        expect(passed).toBeGreaterThanOrEqual(passedOnReference.size);
      } finally {
        await server.stop();
      }
    });
  }
});
