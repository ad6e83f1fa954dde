/**
 * Files of this package found from its root, not from the calling module: the built package is
 * bundled (scripts/build.ts), so a module's code may run from a shared chunk under dist/chunks/
 * and `import.meta.url` says nothing about where its sibling files are. Under tsx (tests,
 * `npm run study`) the sources under src/ run as they are; once built, dist/ holds the same tree
 * of entry points, with `.js` for `.ts`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** Whether this is the sources under tsx (src/) rather than the built package (dist/). */
export const runningSources = here.endsWith('.ts');

let root: string | undefined;

/** The package's root: the nearest directory above this module that holds package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(here);
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${here}`);
    dir = up;
  }
  root = dir;
  return dir;
}

/**
 * The path of `path` (relative to src/, e.g. `server/ui/static/app.js`) in the tree that is
 * running: under src/ for the sources, under dist/ once built.
 */
export function packageFile(path: string): string {
  return join(packageRoot(), runningSources ? 'src' : 'dist', path);
}

/**
 * The script `path` (relative to src/, without extension: `process/server-child`): its `.ts`
 * under tsx, its `.js` once built, with the node flags each needs.
 */
export function packageScript(path: string): { path: string; execArgv: string[] } {
  return runningSources
    ? { path: packageFile(`${path}.ts`), execArgv: ['--import', 'tsx'] }
    : { path: packageFile(`${path}.js`), execArgv: [] };
}
