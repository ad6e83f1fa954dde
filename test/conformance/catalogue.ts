/**
 * The conformance tests of the release e2e.test was built from, read from
 * the k8s.io/kubernetes module's own `test/conformance/testdata/conformance.yaml`
 * (the list the conformance programme certifies against), each with the
 * source of its `framework.ConformanceIt` body so the needs can be read.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { REFERENCE_RELEASE } from '../../src/process/index.js';

/** One conformance test. */
export interface ConformanceTest {
  /** Ginkgo's full text, as `--ginkgo.focus` matches it. */
  name: string;
  /** The conformance programme's short name ("Watchers, observe ..."). */
  testname: string;
  /** Sig, from the name's first bracket. */
  sig: string;
  /** The Go file, relative to k8s.io/kubernetes. */
  file: string;
  /** The body of its `ConformanceIt` call and of the package's functions it calls (two levels), for reading needs. */
  source: string;
}

/** k8s.io/kubernetes at the reference release, in the Go module cache (downloaded by reference/e2e.sh). */
export function kubernetesModuleDir(): string {
  const cache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const dir = join(cache, 'k8s.io', `kubernetes@${REFERENCE_RELEASE.kube}`);
  if (!existsSync(dir)) throw new Error(`${dir} is absent: run bash reference/e2e.sh`);
  return dir;
}

interface YamlEntry {
  testname: string;
  codename: string;
  file: string;
}

/** Every conformance test of the release, in the order of conformance.yaml. */
export function readCatalogue(moduleDir = kubernetesModuleDir()): ConformanceTest[] {
  const entries = parse(
    readFileSync(join(moduleDir, 'test/conformance/testdata/conformance.yaml'), 'utf8'),
  ) as YamlEntry[];
  const packages = new Map<string, GoPackage>();
  return entries.map((e) => {
    const name = e.codename.replace(/\s+/g, ' ').trim();
    const dir = dirname(join(moduleDir, e.file));
    let pkg = packages.get(dir);
    if (!pkg) {
      pkg = readPackage(dir);
      packages.set(dir, pkg);
    }
    return {
      name,
      testname: e.testname,
      sig: /^\[(sig-[a-z-]+)\]/.exec(name)?.[1] ?? 'unknown',
      file: e.file,
      source: conformanceBody(readFileSync(join(moduleDir, e.file), 'utf8'), name, pkg),
    };
  });
}

interface GoPackage {
  /** Top-level function and method bodies by name. */
  functions: Map<string, string>;
}

function readPackage(dir: string): GoPackage {
  const functions = new Map<string, string>();
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.go') || f.endsWith('_test.go')) continue;
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/^func (?:\([^)]*\) )?([A-Za-z_][A-Za-z0-9_]*)\s*[([]/gm)) {
      const open = text.indexOf('{', m.index);
      if (open < 0) continue;
      const end = matchingClose(text, open, '{', '}');
      functions.set(m[1] as string, text.slice(m.index, end + 1));
    }
  }
  return { functions };
}

/**
 * The ConformanceIt call whose text the name ends with, plus the package
 * functions it calls, and theirs (two levels): enough to see a pod wait
 * hidden in a helper of the same file.
 */
function conformanceBody(text: string, name: string, pkg: GoPackage): string {
  let best = '';
  let bestLiteral = '';
  let at = -1;
  // `framework.ConformanceIt("...")`, or `f.It("...", framework.WithConformance(), ...)`.
  for (const m of text.matchAll(/(?:ConformanceIt|\bIt)\(\s*"((?:[^"\\]|\\.)*)"/g)) {
    const literal = m[1] as string;
    if (!name.includes(literal)) continue;
    if (literal.length <= bestLiteral.length) continue;
    const open = text.indexOf('(', m.index);
    best = text.slice(m.index, matchingClose(text, open, '(', ')') + 1);
    bestLiteral = literal;
    at = m.index;
  }
  if (!best) return '';
  // What the test's containers run first (a webhook deployed in a BeforeEach, say): each
  // BeforeEach whose enclosing block also encloses the test.
  const blocks = braceBlocks(text);
  for (const m of text.matchAll(/ginkgo\.(?:Just)?BeforeEach\(/g)) {
    const scope = innermost(blocks, m.index);
    if (scope && !(scope[0] < at && at < scope[1])) continue;
    const open = text.indexOf('(', m.index);
    best += `\n${text.slice(m.index, matchingClose(text, open, '(', ')') + 1)}`;
  }
  const seen = new Set<string>();
  let frontier = best;
  let all = best;
  for (let depth = 0; depth < 2; depth++) {
    let next = '';
    for (const m of frontier.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*)\(/g)) {
      const fn = m[1] as string;
      if (seen.has(fn)) continue;
      const body = pkg.functions.get(fn);
      if (!body) continue;
      seen.add(fn);
      next += `\n${body}`;
    }
    all += next;
    frontier = next;
  }
  return all;
}

/** Every `{...}` block of Go source as [open, close] offsets, strings and comments skipped. */
function braceBlocks(text: string): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
    } else if (ch === '`') {
      i = text.indexOf('`', i + 1);
      if (i < 0) break;
    } else if (ch === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) break;
    } else if (ch === '{') stack.push(i);
    else if (ch === '}' && stack.length > 0) blocks.push([stack.pop() as number, i]);
  }
  return blocks;
}

/** The smallest block holding `pos`, or undefined at the top level. */
function innermost(blocks: Array<[number, number]>, pos: number): [number, number] | undefined {
  let best: [number, number] | undefined;
  for (const b of blocks)
    if (b[0] < pos && pos < b[1] && (!best || b[1] - b[0] < best[1] - best[0])) best = b;
  return best;
}

/** Index of the bracket closing the one at `open`, skipping Go strings and comments. */
function matchingClose(text: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      for (i++; i < text.length && text[i] !== ch; i++) if (text[i] === '\\') i++;
    } else if (ch === '`') {
      i = text.indexOf('`', i + 1);
      if (i < 0) return text.length - 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) return text.length - 1;
    } else if (ch === o) depth++;
    else if (ch === c && --depth === 0) return i;
  }
  return text.length - 1;
}
