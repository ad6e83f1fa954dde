/**
 * How the chaos server processes run their code. Under tsx every process
 * transpiles and resolves the server's modules through loader hooks, which
 * costs far more CPU than loading built JavaScript (`npm run bench:import`
 * measures both, bench/results/server-import.json), and a kill run starts
 * several per seed on a 2-core machine. One esbuild bundle of
 * server-child.ts, built once per run, loads like built JavaScript.
 * esbuild comes with tsx (its transpiler); where it cannot be
 * loaded or the bundle cannot be written, the processes run the TypeScript
 * under tsx, only slower.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siblingScript } from '../../src/process/index.js';

/** A script to fork and the node flags it needs. */
export interface ChildScript {
  path: string;
  execArgv: string[];
}

/** A built (or found) server child script; `close()` removes what was built. */
export interface ServerChildCode {
  script: ChildScript;
  /** `bundle` or `tsx (why)`, for the run's first line. */
  how: string;
  close(): Promise<void>;
}

/** The repository root: bundles live under its node_modules, where their packages resolve. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The server child as it is in the source tree (tsx), with nothing to remove. */
export function sourceServerChild(how = 'tsx'): ServerChildCode {
  return { script: siblingScript(import.meta.url, 'server-child'), how, close: async () => {} };
}

/**
 * Bundles server-child.ts (packages stay imports of node_modules) into
 * node_modules/.cache/watchmark-chaos/, or falls back to the source under
 * tsx when esbuild is not there. Already running from built JavaScript,
 * there is nothing to bundle.
 */
export async function buildServerChild(): Promise<ServerChildCode> {
  const source = siblingScript(import.meta.url, 'server-child');
  if (!source.path.endsWith('.ts')) return sourceServerChild('built JavaScript');
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (err) {
    return sourceServerChild(`tsx (no esbuild: ${(err as Error).message.split('\n')[0]})`);
  }
  const dir = join(ROOT, 'node_modules', '.cache', 'watchmark-chaos');
  // One file per run: runs (and test workers) side by side never share one.
  const path = join(dir, `server-child-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  try {
    await mkdir(dir, { recursive: true });
    const out = await esbuild.build({
      entryPoints: [source.path],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
    });
    await writeFile(path, out.outputFiles[0].contents);
  } catch (err) {
    // A read-only node_modules, or source esbuild cannot bundle: the slower way still works.
    await rm(path, { force: true });
    return sourceServerChild(`tsx (bundling failed: ${(err as Error).message.split('\n')[0]})`);
  }
  return { script: { path, execArgv: [] }, how: 'bundle', close: () => rm(path, { force: true }) };
}
