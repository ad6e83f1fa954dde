/**
 * The house rules that a reader of the layout relies on, checked on the
 * source text:
 *
 * - bench/ imports only the package's public entry points (src/index.ts,
 *   src/server/index.ts, src/sim/index.ts) and the shared process plumbing
 *   (src/process/index.ts): a benchmark measures what users get, and a
 *   refactor inside src/ never breaks one;
 * - no import cycle among the files of src/ (a circle between folders is a
 *   design bug, and one between files hides one).
 *
 * Each failure names the file and the import to change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The entry points bench/ may import, relative to the repository root. */
const BENCH_MAY_IMPORT = ['src/index.ts', 'src/server/index.ts', 'src/sim/index.ts', 'src/process/index.ts'];

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts'))
    .map((p) => join(dir, p))
    .sort();
}

/**
 * The module specifiers in `text`: `import ... from`, `export ... from`,
 * `import '...'`, `import('...')` and `typeof import('...')` of a string
 * literal, and `new URL('...', import.meta.url)` (how a benchmark names a
 * script it runs). Comments are skipped; computed specifiers cannot be read.
 */
function specifiersOf(text: string): string[] {
  // Comments that open a line (a glob such as 'src/**/*.ts' in a string is no comment).
  const code = text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  const found = patterns.flatMap((p) => [...code.matchAll(p)].map((m) => ({ at: m.index, spec: m[1] })));
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec);
}

/** The file a relative specifier of `from` names (`x.js` is the source `x.ts`), or undefined for a package. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const path = resolve(dirname(from), spec);
  return path.endsWith('.js') ? `${path.slice(0, -3)}.ts` : path;
}

/** `file: specifier` for every import of a bench file that reaches into src/ past the allowed entry points. */
function benchBreaches(files: Array<{ path: string; text: string }>): string[] {
  const src = join(ROOT, 'src');
  const allowed = new Set(BENCH_MAY_IMPORT.map((p) => join(ROOT, p)));
  const out: string[] = [];
  for (const { path, text } of files) {
    for (const spec of specifiersOf(text)) {
      const target = resolveSpecifier(path, spec);
      if (target === undefined || !target.startsWith(`${src}/`) || allowed.has(target)) continue;
      out.push(`${relative(ROOT, path)}: ${spec}`);
    }
  }
  return out;
}

/** Every import cycle among `files` (by their relative imports), each as the files around it. */
function importCycles(files: Array<{ path: string; text: string }>): string[][] {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map<string, string[]>();
  for (const { path, text } of files) {
    const targets = specifiersOf(text)
      .map((s) => resolveSpecifier(path, s))
      .filter((t): t is string => t !== undefined && known.has(t));
    edges.set(path, [...new Set(targets)]);
  }
  // Depth-first search; a back edge to a file still on the stack closes a cycle.
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

const read = (paths: string[]) => paths.map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('house rules', () => {
  it('bench/ imports only the public entry points and src/process/index.ts', () => {
    const breaches = benchBreaches(read(tsFilesUnder(join(ROOT, 'bench'))));
    expect(breaches, `bench/ may import from src/ only ${BENCH_MAY_IMPORT.join(', ')}`).toEqual([]);
  });

  it('no import cycle among the files of src/', () => {
    const cycles = importCycles(read(tsFilesUnder(join(ROOT, 'src')))).map((c) => c.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('the checks read every kind of import, and name what breaks them', () => {
    // Made-up paths: the check reads specifiers, it never needs the files (and a rename elsewhere leaves these alone).
    const bench = join(ROOT, 'bench/x.ts');
    const text = [
      "import { a } from '../src/index.js';",
      "import type { B } from '../src/client/some-internal.js';",
      "export { c } from '../src/process/index.js';",
      "const d = await import('../src/server/some-store.js');",
      "type E = typeof import('../src/protocol/some-type.js');",
      "import '../src/study/some-run.js';",
      "const script = new URL('../src/study/some-child.ts', import.meta.url);",
      "// import { f } from '../src/client/commented-out.js';",
      "import { g } from 'vitest';",
    ].join('\n');
    expect(benchBreaches([{ path: bench, text }])).toEqual([
      'bench/x.ts: ../src/client/some-internal.js',
      'bench/x.ts: ../src/server/some-store.js',
      'bench/x.ts: ../src/protocol/some-type.js',
      'bench/x.ts: ../src/study/some-run.js',
      'bench/x.ts: ../src/study/some-child.ts',
    ]);
    const a = join(ROOT, 'src/a.ts');
    const b = join(ROOT, 'src/b.ts');
    const c = join(ROOT, 'src/c.ts');
    expect(
      importCycles([
        { path: a, text: "import { b } from './b.js';" },
        { path: b, text: "import type { C } from './c.js';" },
        { path: c, text: "export { a } from './a.js';" },
      ]),
    ).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/a.ts']]);
    expect(
      importCycles([
        { path: a, text: "import { b } from './b.js';" },
        { path: b, text: '' },
      ]),
    ).toEqual([]);
  });
});
