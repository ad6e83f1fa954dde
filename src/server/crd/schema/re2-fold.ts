/**
 * Case folding as Go's regexp applies it under `(?i)`: a rune matches every rune of its orbit
 * under Unicode simple case folding (regexp/syntax parse.go `minFoldRune`/`appendFoldedRange`,
 * over unicode.SimpleFold), so `k` also matches U+212A KELVIN SIGN and `s` U+017F LONG S.
 * JavaScript's `iu` matching folds the same way (simple case folding), but it cannot be turned
 * on for part of a pattern in Node 20, nor does it fold a negated class as Go does (Go folds,
 * then negates). So the translation expands folding itself: a literal becomes a class of its
 * orbit, a class gains the orbits of its members. The orbits are read from JavaScript's own
 * case mappings, checked against its `iu` matching, once, on the first pattern that folds.
 */

let orbits: Map<number, readonly number[]> | undefined;

/** The orbits of all cased runes, built on first use. */
function allOrbits(): Map<number, readonly number[]> {
  orbits ??= buildOrbits();
  return orbits;
}

const single = (s: string): boolean => s.length === 1 || (s.length === 2 && s.codePointAt(0)! > 0xffff);

/** The orbits of all cased runes (U+1E943 is the last cased rune in Unicode 15). */
function buildOrbits(): Map<number, readonly number[]> {
  const byKey = new Map<string, number[]>();
  for (let cp = 0; cp <= 0x1e943; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    const up = ch.toUpperCase();
    const lo = ch.toLowerCase();
    if (up === ch && lo === ch) continue;
    // The lower case of the upper case joins orbits like {k, K, U+212A} and {s, S, U+017F}.
    const upper = single(up) ? up : ch;
    const key = single(upper.toLowerCase()) ? upper.toLowerCase() : single(lo) ? lo : ch;
    const members = byKey.get(key);
    if (members === undefined) byKey.set(key, [cp]);
    else members.push(cp);
  }
  const out = new Map<number, readonly number[]>();
  // Only what simple case folding joins (a back reference under `iu` compares folded runes):
  // U+0131 dotless i upper-cases to I but is no fold of i, in JavaScript as in Go.
  const sameFold = /^(.)\1$/iu;
  for (const [key, members] of byKey) {
    const orbit = [key.codePointAt(0)!, ...members].filter((cp, i, all) => all.indexOf(cp) === i);
    const kept = orbit.filter((cp) => sameFold.test(key + String.fromCodePoint(cp)));
    if (kept.length > 1) for (const cp of kept) out.set(cp, kept);
  }
  return out;
}

/**
 * An ASCII rune's orbit, known without building the table: a letter and its other case, and
 * for k and s the two non-ASCII runes that fold to them.
 */
function asciiOrbit(cp: number): readonly number[] {
  const ch = String.fromCharCode(cp);
  if (!/[A-Za-z]/.test(ch)) return [cp];
  const lower = ch.toLowerCase();
  const orbit = [lower.charCodeAt(0), ch.toUpperCase().charCodeAt(0)];
  if (lower === 'k') orbit.push(0x212a);
  if (lower === 's') orbit.push(0x17f);
  return orbit;
}

/** The runes `cp` matches under `(?i)`, itself included. */
export function orbitOf(cp: number): readonly number[] {
  if (cp < 0x80) return asciiOrbit(cp);
  return allOrbits().get(cp) ?? [cp];
}

/**
 * The runes to add to a class so that it holds the orbit of each of its members: `contains`
 * says whether the class (positive, before folding) holds a rune; `ascii`, that it holds ASCII
 * runes only (whose orbits are known without the table).
 */
export function foldExtras(contains: (cp: number) => boolean, ascii = false): number[] {
  const extra: number[] = [];
  const seen = new Set<readonly number[]>();
  const all = ascii ? Array.from({ length: 26 }, (_, i) => asciiOrbit(0x61 + i)) : allOrbits().values();
  for (const orbit of all) {
    if (seen.has(orbit)) continue;
    seen.add(orbit);
    const inside = orbit.filter(contains);
    if (inside.length > 0 && inside.length < orbit.length) extra.push(...orbit.filter((cp) => !contains(cp)));
  }
  return extra;
}

/**
 * A rune in JavaScript pattern source that reads the same with and without the `u` flag
 * (except astral runes, `\u{...}`, which need it): syntax characters escaped, `-` escaped in
 * classes, printable ASCII as itself, the rest as `\uXXXX`.
 */
export function escapeRune(cp: number, inClass = false): string {
  const ch = String.fromCodePoint(cp);
  if ('^$\\.*+?()[]{}|/'.includes(ch) || (inClass && ch === '-')) return `\\${ch}`;
  if (cp >= 0x20 && cp <= 0x7e) return ch;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}
