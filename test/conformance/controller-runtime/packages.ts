/**
 * The built test binaries: `reference/controller-runtime.sh` (idempotent,
 * seconds when its cache is complete) prints their folder last, and that
 * folder's packages.tsv names each package, its binary and its source folder
 * in the Go module cache.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One controller-runtime package whose test binary was built. */
export interface TestPackage {
  /** Path inside controller-runtime, as `pkg/client`. */
  name: string;
  binary: string;
  /** The package's source folder (read-only, in the Go module cache). */
  sourceDir: string;
  /** Whether its tests include a ginkgo suite. */
  ginkgo: boolean;
}

/** Runs the build script (progress on our stderr) and resolves with its last stdout line. */
export async function buildTestBinaries(repo: string): Promise<string> {
  const child = spawn('bash', [join(repo, 'reference/controller-runtime.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    out += text;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`reference/controller-runtime.sh failed (exit ${code})`);
  const lines = out.trim().split('\n');
  return lines[lines.length - 1];
}

async function usesGinkgo(sourceDir: string): Promise<boolean> {
  for (const file of await readdir(sourceDir)) {
    if (!file.endsWith('_test.go')) continue;
    if ((await readFile(join(sourceDir, file), 'utf8')).includes('"github.com/onsi/ginkgo/v2"')) return true;
  }
  return false;
}

/** The packages listed in `binDir/packages.tsv`. */
export async function readPackages(binDir: string): Promise<TestPackage[]> {
  const tsv = await readFile(join(binDir, 'packages.tsv'), 'utf8');
  const out: TestPackage[] = [];
  for (const line of tsv.split('\n')) {
    if (line.trim() === '') continue;
    const [name, file, sourceDir] = line.split('\t');
    out.push({ name, binary: join(binDir, file), sourceDir, ginkgo: await usesGinkgo(sourceDir) });
  }
  return out;
}
