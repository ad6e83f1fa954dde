/**
 * RE2 patterns (cel-go's `matches`, apiserver library regex.go `find`/`findAll`) run as
 * JavaScript RegExps, translated by the schema's `re2ToJs`. RE2 matches in linear time, so a
 * rule cannot hang the API server with a pattern like `(a+)+$`; JavaScript's engine
 * backtracks. V8 has a linear-time engine too (the `l` flag, behind
 * `--enable-experimental-regexp-engine`, which only makes that flag available): patterns it
 * takes (no backreferences or lookarounds, which RE2 has neither) run there, on inputs it
 * reads as RE2 does. The rest (non-ASCII patterns, named groups, inputs with astral
 * characters) run on the backtracking engine.
 */
import { setFlagsFromString } from 'node:v8';
import { re2ToJs } from '../schema/structural.js';

/** Whether this V8 has the linear-time engine. */
const LINEAR = ((): boolean => {
  try {
    setFlagsFromString('--enable-experimental-regexp-engine');
    // The flag is a variable: a literal `/a/l` would not parse where the engine is absent.
    const linearFlag = 'l';
    return new RegExp('a', linearFlag).test('a');
  } catch {
    return false;
  }
})();

interface Compiled {
  /** The pattern on the backtracking engine, with RE2's rune semantics (`u`). */
  full: RegExp;
  /** The pattern on the linear engine, when it takes it (code units, so ASCII-safe inputs only). */
  linear?: RegExp;
}

const cache = new Map<string, Compiled>();

function compile(pattern: string): Compiled {
  const { body, flags } = re2ToJs(pattern);
  let full: RegExp;
  try {
    full = new RegExp(body, `${flags}g`);
  } catch {
    throw new Error(`error parsing regexp: ${pattern}`);
  }
  let linear: RegExp | undefined;
  // Without `u` an ASCII pattern reads any input without astral characters as with it.
  if (LINEAR && /^[\x20-\x7e]*$/.test(body) && !/\\[pPu]|\(\?</.test(body)) {
    try {
      linear = new RegExp(body, `${flags.replace('u', '')}lg`);
    } catch {
      linear = undefined;
    }
  }
  return { full, linear };
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
  const re = c.linear !== undefined && !/[\uD800-\uDFFF]/.test(input) ? c.linear : c.full;
  re.lastIndex = 0;
  return re;
}
