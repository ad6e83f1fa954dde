/**
 * apimachinery pkg/util/diff `Diff`, which the volume kinds' update validation prints under its
 * "is immutable after creation" errors: both values as indented JSON (encoding/json
 * `MarshalIndent` with a one-space indent), compared line by line with go-difflib's unified diff
 * (3 lines of context, no file headers). go-difflib follows Python's difflib: a
 * SequenceMatcher finds the longest matching blocks (lines held by more than 1% of a long
 * second text are "popular" and never start a match), the opcodes between them are grouped
 * into hunks.
 *
 * The values are Go structs without json tags: a caller builds them as plain objects whose keys
 * are the Go field names in declaration order (maps already sorted), as {@link goIndentJson}
 * writes keys in insertion order.
 */

/** `json.MarshalIndent(v, "", " ")`: insertion-ordered keys, Go's HTML-safe string escapes. */
export function goIndentJson(value: unknown): string {
  return JSON.stringify(value, null, 1)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** go-difflib `SplitLines`: each line keeps its newline, and the last gets one. */
function splitLines(s: string): string[] {
  const lines = s.split('\n').map((l) => `${l}\n`);
  // strings.SplitAfter keeps the separators: every piece but the last ends in "\n" already,
  // and the last one is given a "\n"; split() + "\n" on each gives the same.
  return lines;
}

interface Match {
  a: number;
  b: number;
  size: number;
}

type Tag = 'r' | 'd' | 'i' | 'e';

interface OpCode {
  tag: Tag;
  i1: number;
  i2: number;
  j1: number;
  j2: number;
}

/** The lines of `b` by position, without the popular ones (chainB with autojunk). */
function indexB(b: readonly string[]): Map<string, number[]> {
  const b2j = new Map<string, number[]>();
  b.forEach((line, i) => {
    const at = b2j.get(line);
    if (at) at.push(i);
    else b2j.set(line, [i]);
  });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [line, at] of [...b2j]) if (at.length > ntest) b2j.delete(line);
  }
  return b2j;
}

function longestMatch(
  a: readonly string[],
  b: readonly string[],
  b2j: Map<string, number[]>,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): Match {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    j2len = next;
  }
  // No junk lines here, so only the extensions by equal lines apply.
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
    bestsize++;
  }
  return { a: besti, b: bestj, size: bestsize };
}

function matchingBlocks(a: readonly string[], b: readonly string[]): Match[] {
  const b2j = indexB(b);
  const matched: Match[] = [];
  const recurse = (alo: number, ahi: number, blo: number, bhi: number): void => {
    const m = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (m.size === 0) return;
    if (alo < m.a && blo < m.b) recurse(alo, m.a, blo, m.b);
    matched.push(m);
    if (m.a + m.size < ahi && m.b + m.size < bhi) recurse(m.a + m.size, ahi, m.b + m.size, bhi);
  };
  recurse(0, a.length, 0, b.length);
  const merged: Match[] = [];
  let cur: Match = { a: 0, b: 0, size: 0 };
  for (const m of matched) {
    if (cur.a + cur.size === m.a && cur.b + cur.size === m.b) cur = { ...cur, size: cur.size + m.size };
    else {
      if (cur.size > 0) merged.push(cur);
      cur = m;
    }
  }
  if (cur.size > 0) merged.push(cur);
  merged.push({ a: a.length, b: b.length, size: 0 });
  return merged;
}

function opCodes(a: readonly string[], b: readonly string[]): OpCode[] {
  const codes: OpCode[] = [];
  let i = 0;
  let j = 0;
  for (const m of matchingBlocks(a, b)) {
    const tag: Tag | undefined = i < m.a && j < m.b ? 'r' : i < m.a ? 'd' : j < m.b ? 'i' : undefined;
    if (tag) codes.push({ tag, i1: i, i2: m.a, j1: j, j2: m.b });
    i = m.a + m.size;
    j = m.b + m.size;
    if (m.size > 0) codes.push({ tag: 'e', i1: m.a, i2: i, j1: m.b, j2: j });
  }
  return codes;
}

function groupedOpCodes(a: readonly string[], b: readonly string[], n: number): OpCode[][] {
  let codes = opCodes(a, b);
  if (codes.length === 0) codes = [{ tag: 'e', i1: 0, i2: 1, j1: 0, j2: 1 }];
  const first = codes[0];
  if (first.tag === 'e') {
    codes[0] = { ...first, i1: Math.max(first.i1, first.i2 - n), j1: Math.max(first.j1, first.j2 - n) };
  }
  const last = codes[codes.length - 1];
  if (last.tag === 'e') {
    codes[codes.length - 1] = {
      ...last,
      i2: Math.min(last.i2, last.i1 + n),
      j2: Math.min(last.j2, last.j1 + n),
    };
  }
  const groups: OpCode[][] = [];
  let group: OpCode[] = [];
  for (const c of codes) {
    let { i1, j1 } = c;
    if (c.tag === 'e' && c.i2 - c.i1 > 2 * n) {
      group.push({ tag: 'e', i1, i2: Math.min(c.i2, i1 + n), j1, j2: Math.min(c.j2, j1 + n) });
      groups.push(group);
      group = [];
      i1 = Math.max(i1, c.i2 - n);
      j1 = Math.max(j1, c.j2 - n);
    }
    group.push({ tag: c.tag, i1, i2: c.i2, j1, j2: c.j2 });
  }
  if (group.length > 0 && !(group.length === 1 && group[0].tag === 'e')) groups.push(group);
  return groups;
}

function unifiedRange(start: number, stop: number): string {
  const length = stop - start;
  if (length === 1) return String(start + 1);
  return `${length === 0 ? start : start + 1},${length}`;
}

/** go-difflib's unified diff of two line lists, without headers. */
function unifiedDiff(a: readonly string[], b: readonly string[], context: number): string {
  let out = '';
  for (const g of groupedOpCodes(a, b, context)) {
    const first = g[0];
    const last = g[g.length - 1];
    out += `@@ -${unifiedRange(first.i1, last.i2)} +${unifiedRange(first.j1, last.j2)} @@\n`;
    for (const c of g) {
      if (c.tag === 'e') {
        for (const line of a.slice(c.i1, c.i2)) out += ` ${line}`;
        continue;
      }
      if (c.tag === 'r' || c.tag === 'd') for (const line of a.slice(c.i1, c.i2)) out += `-${line}`;
      if (c.tag === 'r' || c.tag === 'i') for (const line of b.slice(c.j1, c.j2)) out += `+${line}`;
    }
  }
  return out;
}

/** apimachinery `diff.Diff(a, b)` of two Go values given as {@link goIndentJson} takes them. */
export function goDiff(a: unknown, b: unknown): string {
  return unifiedDiff(splitLines(goIndentJson(a)), splitLines(goIndentJson(b)), 3);
}
