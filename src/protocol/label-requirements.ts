/**
 * The parts every form of a label selector is built from: the selector and
 * requirement types, {@link SelectorError}, and requirements validated as
 * apimachinery's `NewRequirement` validates them (k8s.io/apimachinery/pkg/util/validation).
 */

/**
 * Any malformed label or field selector. The server answers it with 400 BadRequest,
 * so the message names the offending part the way apimachinery's do.
 */
export class SelectorError extends Error {
  /** The selector text that failed, when there was one (not for the object form). */
  readonly selector: string | undefined;

  constructor(message: string, selector?: string) {
    super(message);
    this.name = 'SelectorError';
    this.selector = selector;
  }
}

/** A requirement's operator, spelled as apimachinery's `selection.Operator` values. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement; a selector matches when all of its requirements do (comma = AND). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Sorted and de-duplicated: one for `=` `==` `!=` `gt` `lt`, at least one for `in` `notin`, none otherwise. */
  readonly values: readonly string[];
}

/** A parsed label selector. */
export interface LabelSelector {
  /** Sorted by key (stable), as apimachinery sorts them, so the text form is deterministic. */
  readonly requirements: readonly LabelRequirement[];
  /** Set only on {@link nothingSelector}: selects no object at all, which no text form can say. */
  readonly nothing?: true;
}

/** The selector that matches every object (the empty text, or an empty metav1.LabelSelector). */
export const everythingSelector: LabelSelector = Object.freeze({ requirements: Object.freeze([]) });

/** The selector that matches no object (apimachinery's `labels.Nothing()`, a nil metav1.LabelSelector). */
export const nothingSelector: LabelSelector = Object.freeze({
  requirements: Object.freeze([]),
  nothing: true,
});

// ---------------------------------------------------------------------------
// Validation (k8s.io/apimachinery/pkg/util/validation)

const nameMaxLength = 63;
const prefixMaxLength = 253;
const namePattern = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const dnsLabelPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const charsetRule =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Quotes untrusted text for an error message, cut short so a huge selector cannot bloat the 400 answer. */
export function quoteForMessage(text: string, max = 80): string {
  if (text.length <= max) return JSON.stringify(text);
  let cut = text.slice(0, max);
  // Never leave half a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${JSON.stringify(cut)}...`;
}

/** Why `key` is not a qualified name (optional DNS-subdomain prefix + '/' + name), or undefined when it is. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  let name = key;
  if (slash !== -1) {
    if (key.indexOf('/', slash + 1) !== -1) {
      return "a qualified name has at most one '/' (an optional DNS subdomain prefix, e.g. 'example.com/MyName')";
    }
    const prefix = key.slice(0, slash);
    name = key.slice(slash + 1);
    if (prefix === '') return 'prefix part must be non-empty';
    // Length first: it bounds the pattern work on hostile input.
    if (prefix.length > prefixMaxLength || !prefix.split('.').every((label) => dnsLabelPattern.test(label))) {
      return `prefix part must be a lowercase RFC 1123 subdomain of at most ${prefixMaxLength} characters (e.g. 'example.com')`;
    }
  }
  if (name === '') return 'name part must be non-empty';
  if (name.length > nameMaxLength) return `name part must be no more than ${nameMaxLength} characters`;
  if (!namePattern.test(name)) return `name part ${charsetRule}`;
  return undefined;
}

/** Why `value` is not a label value (empty, or a name of at most 63 characters), or undefined when it is. */
function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > nameMaxLength) return `must be no more than ${nameMaxLength} characters`;
  if (!namePattern.test(value)) return `must be empty or ${charsetRule}`;
  return undefined;
}

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);

/** Go's `strconv.ParseInt(s, 10, 64)`: the integer, or undefined when `s` is not a base-10 int64. */
export function parseInt64(s: string): bigint | undefined {
  if (s.length > 21 || !/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= int64Min && n <= int64Max ? n : undefined;
}

/** Why `values` do not suit `operator` (apimachinery's per-operator rules), or undefined when they do. */
function valueCountProblem(operator: LabelOperator, values: readonly string[]): string | undefined {
  switch (operator) {
    case 'in':
    case 'notin':
      return values.length > 0 ? undefined : "for 'in', 'notin' operators, values set can't be empty";
    case 'gt':
    case 'lt':
      return values.length === 1 && parseInt64(values[0]) !== undefined
        ? undefined
        : "for 'gt', 'lt' operators, the value must be a single integer";
    case 'exists':
    case '!':
      return values.length === 0 ? undefined : 'values set must be empty for exists and does not exist';
    default:
      return values.length === 1 ? undefined : 'exact-match requires one single value';
  }
}

/**
 * Builds a validated requirement, as apimachinery's `NewRequirement`: the key and
 * every value are checked, and the value count must suit the operator.
 */
export function newRequirement(
  key: string,
  operator: LabelOperator,
  values: Iterable<string>,
  text?: string,
) {
  const keyProblem = labelKeyProblem(key);
  if (keyProblem) throw new SelectorError(`invalid label key ${quoteForMessage(key)}: ${keyProblem}`, text);
  const sorted = [...new Set(values)].sort();
  for (const value of sorted) {
    const problem = labelValueProblem(value);
    if (problem) {
      const where = `${quoteForMessage(value)} for key ${quoteForMessage(key)}`;
      throw new SelectorError(`invalid label value ${where}: ${problem}`, text);
    }
  }
  const countProblem = valueCountProblem(operator, sorted);
  if (countProblem) throw new SelectorError(`${countProblem} (key ${quoteForMessage(key)})`, text);
  const requirement: LabelRequirement = { key, operator, values: sorted };
  return requirement;
}

/** Sorts by key, stably, so equal keys keep their written order and formatting round-trips. */
export function byKey(requirements: LabelRequirement[]): LabelRequirement[] {
  return requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
