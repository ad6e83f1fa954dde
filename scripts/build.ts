/**
 * `npm run build`: the package as users install it.
 *
 * - Type declarations come from tsc (tsconfig.build.json emits only those).
 * - The JavaScript is bundled by esbuild: one file per public entry point, at the path
 *   package.json's `exports` and `bin` name, with the code they share split into dist/chunks/.
 *   Node loads a few dozen files instead of seven hundred, which is most of what importing the
 *   server cost (`npm run bench:import`). Lazily loaded modules (generated tables, the CEL
 *   library's users) stay lazy: each dynamic `import()` becomes its own chunk.
 * - The live view's static files are copied beside its module's place in the tree.
 *
 * `--js-only` skips the declarations (the benchmarks that rebuild before measuring): it keeps
 * dist/'s existing .d.ts files and replaces only the bundle.
 *
 * Packages stay external (npm installs them); names are kept so that class names in messages
 * and stack traces read as in the sources; source maps point at src/.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Entry points, relative to src/ without extension: package.json's exports and bin, and the scripts forked by path. */
export const ENTRY_POINTS = [
  'index',
  'server/index',
  'client-node/index',
  'testing/index',
  'testing/fixtures/index',
  'cli/main',
  // Forked as scripts (protocol/package-files.ts packageScript).
  'process/server-child',
  'study/churn-child',
  // Imported by path by bench:openapi, to weigh the descriptions alone.
  'server/openapi/openapi-descriptions.generated',
];

/** `--silent`, or npm's own (`npm run build --silent`, as `npm start` runs it): no step lines. */
const quiet = process.argv.includes('--silent') || process.env.npm_config_loglevel === 'silent';

function step(what: string, run: () => void | Promise<void>): Promise<void> {
  const t0 = performance.now();
  return Promise.resolve(run()).then(() => {
    if (!quiet) console.log(`${what} (${Math.round(performance.now() - t0)} ms)`);
  });
}

const jsOnly = process.argv.includes('--js-only');

await step(jsOnly ? 'cleared dist/chunks/' : 'cleared dist/', () =>
  rmSync(`${ROOT}dist${jsOnly ? '/chunks' : ''}`, { recursive: true, force: true }),
);
await step('bundled the entry points (esbuild)', async () => {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS.map((e) => `src/${e}.ts`),
    outbase: 'src',
    outdir: 'dist',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
});
await step('copied the live view files', () =>
  cpSync(`${ROOT}src/server/ui/static`, `${ROOT}dist/server/ui/static`, { recursive: true }),
);
if (!jsOnly) await step('wrote the type declarations (tsc)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`tsc exited ${r.status ?? r.signal}`);
});
