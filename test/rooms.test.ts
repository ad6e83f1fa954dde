/**
 * The rooms of src/ keep to what their READMEs say. Every folder opens with a
 * README.md whose `May import:` line lists the folders its files may import
 * from (each folder by itself: a subfolder is listed on its own; a file always
 * may import its own folder). This test reads each file's relative imports and fails on any
 * that reaches a folder its README does not list, naming the file, the import
 * and the README to change, so the architecture a reader sees is the one the
 * code has.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

function folders(dir: string): string[] {
  const out = [dir];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    // Static assets served as they are (the live view's page) are no room of code.
    if (statSync(p).isDirectory() && name !== 'static') out.push(...folders(p));
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => join(dir, n));
}

/** The relative import specifiers of a file: static imports, re-exports and `import()` of a literal. */
function relativeImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm))
    specs.push(m[1]);
  return specs;
}

/** The folders a README's `May import:` line lists, resolved to absolute paths. */
function allowedOf(folder: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, 'README.md'), 'utf8');
  } catch {
    return undefined;
  }
  const line = text.split('\n').find((l) => l.startsWith('May import:'));
  if (!line) return undefined;
  // "May import: nothing of ours." lists no folder.
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => normalize(join(folder, m[1])));
}

/** The imports of `file` (in `folder`, whose README allows `allowed`) that reach elsewhere. */
function breachesOf(folder: string, allowed: string[], file: string, text: string): string[] {
  const out: string[] = [];
  for (const spec of relativeImports(text)) {
    const target = dirname(normalize(join(folder, spec)));
    if (target === folder || allowed.includes(target)) continue;
    out.push(`${relative(ROOT, file)} imports ${spec}: not in ${relative(ROOT, join(folder, 'README.md'))}`);
  }
  return out;
}

/** One circle of `edges` (folder -> folders it may import) as its folders in order, or [] when there is none. */
function circleOf(edges: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string): string[] => {
    if (state.get(f) === 'done') return [];
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f];
    state.set(f, 'open');
    path.push(f);
    for (const next of edges.get(f) ?? []) {
      const circle = visit(next);
      if (circle.length) return circle;
    }
    path.pop();
    state.set(f, 'done');
    return [];
  };
  for (const f of edges.keys()) {
    const circle = visit(f);
    if (circle.length) return circle;
  }
  return [];
}

describe('rooms', () => {
  const all = folders(SRC);

  it('every folder of src/ opens with a README that says what it may import', () => {
    const missing = all.filter((f) => allowedOf(f) === undefined).map((f) => relative(ROOT, f));
    expect(missing, 'folders without a README.md holding a `May import:` line').toEqual([]);
  });

  it('every import stays within what its folder README allows', () => {
    const breaches: string[] = [];
    for (const folder of all) {
      const allowed = allowedOf(folder);
      if (!allowed) continue;
      for (const file of tsFiles(folder))
        breaches.push(...breachesOf(folder, allowed, file, readFileSync(file, 'utf8')));
    }
    expect(breaches).toEqual([]);
  });

  it('the rooms the READMEs allow form no circle: arrows only point down', () => {
    const edges = new Map(all.map((f) => [f, (allowedOf(f) ?? []).filter((a) => a !== f)]));
    expect(circleOf(edges).map((f) => relative(ROOT, f) || '.')).toEqual([]);
  });

  it('the check reads every kind of import and names a breach', () => {
    const text = [
      "import { a } from '../server/http/http-io.js';",
      "export { b } from './b.js';",
      "import type { C } from '../c.js';",
      "const m = await import('./lazy.js');",
      "import './side-effect.js';",
    ].join('\n');
    expect(relativeImports(text)).toEqual([
      '../server/http/http-io.js',
      './b.js',
      '../c.js',
      './lazy.js',
      './side-effect.js',
    ]);
    const http = join(SRC, 'server/http');
    const file = join(http, 'x.ts');
    const allowed = [join(SRC, 'server/kinds'), join(SRC, 'protocol')];
    expect(breachesOf(http, allowed, file, "import { k } from '../kinds/types.js';")).toEqual([]);
    expect(breachesOf(http, allowed, file, "import { s } from './auth.js';")).toEqual([]);
    expect(breachesOf(http, allowed, file, "import { p } from '../../protocol/patch/index.js';")).toEqual([
      'src/server/http/x.ts imports ../../protocol/patch/index.js: not in src/server/http/README.md',
    ]);
    const a = join(SRC, 'a');
    const b = join(SRC, 'b');
    expect(
      circleOf(
        new Map([
          [a, [b]],
          [b, []],
        ]),
      ),
    ).toEqual([]);
    expect(
      circleOf(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([a, b, a]);
    expect(breachesOf(http, allowed, file, "import { h } from '../handlers/list.js';")).toEqual([
      'src/server/http/x.ts imports ../handlers/list.js: not in src/server/http/README.md',
    ]);
  });
});
