/**
 * The house rules that a reader of the layout relies on, checked on the
 * source text:
 *
 * - bench/ imports only the package's public entry points (src/index.ts,
 *   src/server/index.ts, src/sim/index.ts) and the shared process plumbing
 *   (src/process/index.ts): a benchmark measures what users get, and a
 *   refactor inside src/ never breaks one;
 * - support/ (test infrastructure shared by test/ and bench/) imports src/
 *   through the same entry points as bench/; no file of test/ imports
 *   bench/, no file of bench/ imports test/, and support/ imports neither:
 *   what both need lives in support/;
 * - no import cycle among the files of src/ (a circle between folders is a
 *   design bug, and one between files hides one);
 * - every folder of src/ opens with a README.md whose `May import:` line
 *   lists the folders its files may import (each folder by itself: a
 *   subfolder is listed on its own; a file always may import its own
 *   folder); every import keeps to it, and the folders those lines allow
 *   form no circle, so arrows only point down.
 *
 * Each failure names the file and the import (or the README) to change.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The entry points bench/ may import, relative to the repository root. */
const BENCH_MAY_IMPORT = [
  'src/index.ts',
  'src/server/index.ts',
  'src/sim/index.ts',
  'src/testing/index.ts',
  'src/client-node/index.ts',
  'src/process/index.ts',
];

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

/**
 * What an experiment (bench/experiments/) may import besides the entry points: each one an
 * internal that experiment measures by name. Issue 26's protobuf experiment prices the server's
 * own protobuf-to-JSON mapping against JSON.parse; its informer replay feeds watchmark's own
 * watch stream (ResponseWatchStream, not exported) a response made of recorded chunks.
 */
const EXPERIMENTS_MAY_ALSO_IMPORT = ['src/server/protobuf/to-json.ts', 'src/client/watch/listwatch.ts'];

/** `file: specifier` for every import of a bench file that reaches into src/ past the allowed entry points. */
function benchBreaches(files: Array<{ path: string; text: string }>): string[] {
  const src = join(ROOT, 'src');
  const allowed = new Set(BENCH_MAY_IMPORT.map((p) => join(ROOT, p)));
  const experimentsAlso = new Set(EXPERIMENTS_MAY_ALSO_IMPORT.map((p) => join(ROOT, p)));
  const experiments = join(ROOT, 'bench/experiments/');
  const out: string[] = [];
  for (const { path, text } of files) {
    for (const spec of specifiersOf(text)) {
      const target = resolveSpecifier(path, spec);
      if (target === undefined || !target.startsWith(`${src}/`) || allowed.has(target)) continue;
      if (path.startsWith(experiments) && experimentsAlso.has(target)) continue;
      out.push(`${relative(ROOT, path)}: ${spec}`);
    }
  }
  return out;
}

/**
 * What support/ may import from src/ besides the entry points bench/ may import. None today:
 * the chaos engine drives servers, informers and etcd through src/index.ts, src/server/index.ts,
 * src/sim/index.ts and src/process/index.ts, as a user would. An internal added here needs a
 * reason, as EXPERIMENTS_MAY_ALSO_IMPORT gives one.
 */
const SUPPORT_MAY_ALSO_IMPORT: string[] = [];

/** The top-level folders whose code may not import each other's: importer -> folders it may not import. */
const MAY_NOT_IMPORT: Record<string, string[]> = {
  test: ['bench'],
  bench: ['test'],
  support: ['test', 'bench'],
};

/**
 * `file: specifier` for every import of code (a .ts file or a folder; data such as a results
 * file is none) that crosses MAY_NOT_IMPORT, e.g. a test importing bench/.
 */
function crossingBreaches(files: Array<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = relative(ROOT, path).split('/')[0];
    const forbidden = MAY_NOT_IMPORT[from] ?? [];
    for (const spec of specifiersOf(text)) {
      const target = resolveSpecifier(path, spec);
      if (target === undefined || !(target.endsWith('.ts') || spec.endsWith('/'))) continue;
      if (forbidden.includes(relative(ROOT, target).split('/')[0]))
        out.push(`${relative(ROOT, path)}: ${spec}`);
    }
  }
  return out;
}

/** Every cycle of a directed graph (node -> nodes), each as the nodes around it, first node last again. */
function cyclesOf(edges: Map<string, string[]>): string[][] {
  // Depth-first search; a back edge to a node still on the stack closes a cycle.
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
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
  return cyclesOf(edges).map((c) => c.map((f) => relative(ROOT, f)));
}

/** src/ and every folder below it that holds code (the live view's static page is none). */
function codeFolders(dir: string): string[] {
  const out = [dir];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name !== 'static' && statSync(p).isDirectory()) out.push(...codeFolders(p));
  }
  return out;
}

/** The folders a README's `May import:` line lists, as absolute paths; undefined without that line. */
function mayImport(folder: string, readme: string): string[] | undefined {
  const line = readme.split('\n').find((l) => l.startsWith('May import:'));
  // "May import: nothing of ours." lists no folder.
  return line === undefined ? undefined : [...line.matchAll(/`([^`]+)`/g)].map((m) => resolve(folder, m[1]));
}

function readmeOf(folder: string): string {
  try {
    return readFileSync(join(folder, 'README.md'), 'utf8');
  } catch {
    return '';
  }
}

/** `file imports spec: not in README` for each import of `file` (in `folder`) that reaches a folder not allowed. */
function roomBreaches(folder: string, allowed: string[], file: string, text: string): string[] {
  const out: string[] = [];
  for (const spec of specifiersOf(text)) {
    const target = resolveSpecifier(file, spec);
    // Packages, and data a file reads by URL (package.json), are no rooms.
    if (target === undefined || !target.endsWith('.ts')) continue;
    const room = dirname(target);
    if (room === folder || allowed.includes(room)) continue;
    out.push(`${relative(ROOT, file)} imports ${spec}: not in ${relative(ROOT, join(folder, 'README.md'))}`);
  }
  return out;
}

/** The folders whose files are held to {@link MAX_LINES}. */
const SIZE_CHECKED = ['src', 'bench', 'support', 'scripts', 'test'];
const MAX_LINES = 400;

/** Lines of a text as an editor counts them (a final newline ends the last line). */
function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

const read = (paths: string[]) => paths.map((path) => ({ path, text: readFileSync(path, 'utf8') }));

describe('house rules', () => {
  it('bench/ imports only the public entry points and src/process/index.ts', () => {
    const breaches = benchBreaches(read(tsFilesUnder(join(ROOT, 'bench'))));
    expect(breaches, `bench/ may import from src/ only ${BENCH_MAY_IMPORT.join(', ')}`).toEqual([]);
  });

  it('support/ imports only the public entry points and src/process/index.ts', () => {
    const files = read(tsFilesUnder(join(ROOT, 'support')));
    const allowed = new Set(SUPPORT_MAY_ALSO_IMPORT.map((p) => join(ROOT, p)));
    const breaches = benchBreaches(files).filter((b) => {
      const [file, spec] = b.split(': ');
      return !allowed.has(resolveSpecifier(join(ROOT, file), spec) ?? '');
    });
    expect(breaches, `support/ may import from src/ only ${BENCH_MAY_IMPORT.join(', ')}`).toEqual([]);
  });

  it('no test imports bench/, no bench imports test/, and support/ imports neither', () => {
    // This file's own made-up imports (in the test below) are strings, not imports.
    const self = fileURLToPath(import.meta.url);
    const paths = ['test', 'bench', 'support'].flatMap((d) => tsFilesUnder(join(ROOT, d)));
    const files = read(paths.filter((p) => p !== self));
    expect(crossingBreaches(files), 'code both need belongs in support/').toEqual([]);
  });

  it('no file of code over 400 lines outside generated code, and api-server.ts under 250', () => {
    // One concept per file (conventions.md); a file past 400 lines holds two. Generated
    // files (*.generated.ts) are data written by scripts/, read by no one.
    const long = SIZE_CHECKED.flatMap((d) => tsFilesUnder(join(ROOT, d)))
      .filter((f) => !f.endsWith('.generated.ts'))
      .map((f) => ({ f: relative(ROOT, f), lines: lineCount(readFileSync(f, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
    // api-server.ts builds and starts the parts; the request chain lives in http/.
    const apiServer = lineCount(readFileSync(join(ROOT, 'src/server/api-server.ts'), 'utf8'));
    expect(apiServer, 'src/server/api-server.ts lines').toBeLessThan(250);
  });

  it('no handler reaches a store: handlers read through the delegator and the registry', () => {
    const stores = join(ROOT, 'src/server/stores');
    const breaches = read(tsFilesUnder(join(ROOT, 'src/server/handlers'))).flatMap(({ path, text }) =>
      specifiersOf(text)
        .filter((s) => resolveSpecifier(path, s)?.startsWith(`${stores}/`))
        .map((s) => `${relative(ROOT, path)}: ${s}`),
    );
    expect(breaches).toEqual([]);
  });

  it('no import cycle among the files of src/', () => {
    const cycles = importCycles(read(tsFilesUnder(join(ROOT, 'src')))).map((c) => c.join(' -> '));
    expect(cycles).toEqual([]);
  });

  describe('rooms', () => {
    const folders = codeFolders(join(ROOT, 'src'));
    const rules = new Map(folders.map((f) => [f, mayImport(f, readmeOf(f))]));

    it('every folder of src/ opens with a README that says what it may import', () => {
      const missing = folders.filter((f) => rules.get(f) === undefined).map((f) => relative(ROOT, f));
      expect(missing, 'folders without a README.md holding a `May import:` line').toEqual([]);
    });

    it('every import stays within what its folder README allows', () => {
      const breaches = folders.flatMap((folder) =>
        read(
          readdirSync(folder)
            .filter((n) => n.endsWith('.ts'))
            .map((n) => join(folder, n)),
        ).flatMap(({ path, text }) => roomBreaches(folder, rules.get(folder) ?? [], path, text)),
      );
      expect(breaches).toEqual([]);
    });

    it('the rooms the READMEs allow form no circle: arrows only point down', () => {
      const edges = new Map(folders.map((f) => [f, (rules.get(f) ?? []).filter((a) => a !== f)]));
      expect(cyclesOf(edges).map((c) => c.map((f) => relative(ROOT, f) || '.').join(' -> '))).toEqual([]);
    });
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
    expect(
      crossingBreaches([
        {
          path: join(ROOT, 'test/x.test.ts'),
          text: [
            "import { p } from '../bench/lib/some-helper.js';",
            "import { q } from '../support/chaos/engine.js';",
            "const results = new URL('../bench/results/some.json', import.meta.url);",
          ].join('\n'),
        },
        {
          path: join(ROOT, 'bench/x.ts'),
          text: "const dir = new URL('../test/server/fixtures/', import.meta.url);",
        },
        { path: join(ROOT, 'support/x.ts'), text: "import { h } from '../test/helpers/wait.js';" },
        { path: join(ROOT, 'bench/y.ts'), text: "import { e } from '../support/chaos/engine.js';" },
      ]),
    ).toEqual([
      'test/x.test.ts: ../bench/lib/some-helper.js',
      'bench/x.ts: ../test/server/fixtures/',
      'support/x.ts: ../test/helpers/wait.js',
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
    // Rooms: the README's line read, a listed folder allowed, an unlisted one (even a subfolder) named.
    const http = join(ROOT, 'src/room');
    const file = join(http, 'x.ts');
    const allowed = mayImport(http, '# room/\n\nMay import: `../kinds`, `../../protocol`\n') ?? [];
    expect(allowed).toEqual([join(ROOT, 'src/kinds'), join(ROOT, 'protocol')]);
    expect(mayImport(http, 'May import: nothing of ours.')).toEqual([]);
    expect(mayImport(http, '# no rule')).toBeUndefined();
    expect(roomBreaches(http, allowed, file, "import { k } from '../kinds/types.js';")).toEqual([]);
    expect(roomBreaches(http, allowed, file, "import { s } from './sibling.js';")).toEqual([]);
    expect(roomBreaches(http, allowed, file, "import { h } from '../handlers/list.js';")).toEqual([
      'src/room/x.ts imports ../handlers/list.js: not in src/room/README.md',
    ]);
    expect(roomBreaches(http, allowed, file, "import { p } from '../../protocol/patch/index.js';")).toEqual([
      'src/room/x.ts imports ../../protocol/patch/index.js: not in src/room/README.md',
    ]);
  });
});
