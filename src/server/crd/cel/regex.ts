/**
 * RE2 patterns (cel-go's `matches`, apiserver library regex.go `find`/`findAll`) run as
 * JavaScript RegExps, translated by the schema's `re2ToJs` (schema/re2.ts), which also gives
 * Go's `regexp.Compile` error for a pattern Go refuses. RE2 matches in linear time, so a rule
 * cannot hang the API server with a pattern like `(a+)+$`; JavaScript's engine backtracks.
 * Patterns V8's linear-time engine takes run there, on inputs it reads as RE2 does (re2.ts
 * `linearVariant`, `readsAsRunes`, shared with the schema's `pattern`); the rest (Unicode
 * classes, astral runes, `(?m)` anchors, inputs with astral characters) run on the
 * backtracking engine.
 */
import { linearVariant, re2ToJs, readsAsRunes } from '../schema/re2.js';

interface Compiled {
  /** The pattern on the backtracking engine, with RE2's rune semantics (`u`). */
  full: RegExp;
  /** The pattern on the linear engine, when it takes it. */
  linear?: RegExp;
}

const cache = new Map<string, Compiled>();

function compile(pattern: string): Compiled {
  const js = re2ToJs(pattern);
  if ('error' in js) throw new Error(js.error);
  const { body, flags } = js;
  let full: RegExp;
  try {
    full = new RegExp(body, `${flags}g`);
  } catch {
    throw new Error(`error parsing regexp: ${pattern}`);
  }
  return { full, linear: linearVariant(body, `${flags}g`) };
}

/**
 * A global RegExp for `pattern` to run on `input`: linear-time when it can be. Compiled
 * patterns are cached; a bad pattern throws cel-go's `error parsing regexp`.
 */
export function re2(pattern: string, input: string): RegExp {
  let c = cache.get(pattern);
  if (c === undefined) {
    c = compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, c);
  }
  const re = c.linear !== undefined && readsAsRunes(input, c.full.flags) ? c.linear : c.full;
  re.lastIndex = 0;
  return re;
}
