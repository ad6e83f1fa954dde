/**
 * Kubernetes label selectors (k8s.io/apimachinery/pkg/labels): the text form the
 * `labelSelector` query parameter carries, the metav1.LabelSelector object form
 * Deployments and ReplicaSets use, and matching against an object's labels.
 * The lexer and parser follow apimachinery's so a selector means here exactly what
 * it means to kube-apiserver; the one deliberate difference (`in ()`) is noted
 * where it is applied.
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

/** True when `sel` matches every object, so a list or watch needs no filtering. */
export function isEverything(sel: LabelSelector): boolean {
  return sel.requirements.length === 0 && sel.nothing !== true;
}

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
function labelKeyProblem(key: string): string | undefined {
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
function parseInt64(s: string): bigint | undefined {
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
function newRequirement(key: string, operator: LabelOperator, values: Iterable<string>, text?: string) {
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
function byKey(requirements: LabelRequirement[]): LabelRequirement[] {
  return requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Lexer (apimachinery's labels.Lexer)

type SymbolKind = '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';
type TokenKind = 'end' | 'identifier' | 'in' | 'notin' | SymbolKind;

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),<>'.includes(c);

/**
 * Reads selector text one token at a time, so hostile input fails at its first bad
 * token instead of being tokenised whole. Identifiers run until whitespace or a
 * special symbol, so anything else (unicode, '/', '.') lands in an identifier and
 * is judged by key/value validation; special symbols take the longest match, which
 * for this token set means `==` and `!=` over `=` and `!`.
 */
class Lexer {
  private pos = 0;

  constructor(private readonly text: string) {}

  next(): Token {
    const text = this.text;
    while (this.pos < text.length && isWhitespace(text[this.pos])) this.pos++;
    if (this.pos >= text.length) return { kind: 'end', text: '' };
    const c = text[this.pos];
    if (isSpecial(c)) {
      const two = text.slice(this.pos, this.pos + 2);
      const kind = two === '==' || two === '!=' ? two : (c as SymbolKind);
      this.pos += kind.length;
      return { kind, text: kind };
    }
    const start = this.pos;
    while (this.pos < text.length && !isWhitespace(text[this.pos]) && !isSpecial(text[this.pos])) this.pos++;
    const word = text.slice(start, this.pos);
    return { kind: word === 'in' || word === 'notin' ? word : 'identifier', text: word };
  }
}

// ---------------------------------------------------------------------------
// Parser (apimachinery's labels.Parser)

const binaryOperators = 'in, notin, =, ==, !=, >, <';

/** How a token reads in an error message: quoted, or `end of string`. */
function found(tok: Token): string {
  return tok.kind === 'end' ? 'found end of string' : `found ${quoteForMessage(tok.text)}`;
}

class Parser {
  private readonly lexer: Lexer;
  /** The one token of lookahead the grammar needs. */
  private current: Token;

  constructor(private readonly text: string) {
    this.lexer = new Lexer(text);
    this.current = this.lexer.next();
  }

  /**
   * The next token as a value: apimachinery reads `in`/`notin` as identifiers
   * everywhere except in operator position, so `in in (in)` is a valid selector.
   */
  private peek(): Token {
    const tok = this.current;
    return tok.kind === 'in' || tok.kind === 'notin' ? { kind: 'identifier', text: tok.text } : tok;
  }

  private next(): Token {
    const tok = this.peek();
    this.nextOperator();
    return tok;
  }

  /** The next token with keywords kept, for the operator position. */
  private nextOperator(): Token {
    const tok = this.current;
    if (tok.kind !== 'end') this.current = this.lexer.next();
    return tok;
  }

  private fail(message: string): never {
    throw new SelectorError(message, this.text);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'end') return requirements;
      if (tok.kind !== 'identifier' && tok.kind !== '!') {
        this.fail(`${found(tok)}, expected: !, identifier, or end of string`);
      }
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') this.fail(`${found(after)}, expected: ',' or end of string`);
      // A trailing or doubled comma is an error, as in apimachinery.
      const lookahead = this.peek();
      if (lookahead.kind !== 'identifier' && lookahead.kind !== '!') {
        this.fail(`${found(lookahead)}, expected: identifier after ','`);
      }
    }
  }

  private requirement(): LabelRequirement {
    try {
      return this.requirementInner();
    } catch (err) {
      // Prefix like apimachinery so every parse failure inside a term reads the same way.
      if (err instanceof SelectorError) {
        throw new SelectorError(`unable to parse requirement: ${err.message}`, this.text);
      }
      throw err;
    }
  }

  private requirementInner(): LabelRequirement {
    let tok = this.next();
    const negated = tok.kind === '!';
    if (negated) tok = this.next();
    if (tok.kind !== 'identifier') this.fail(`${found(tok)}, expected: identifier`);
    const key = tok.text;
    // Checked before the operator, so `a/b/c foo` blames the key first, as apimachinery does.
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) this.fail(`invalid label key ${quoteForMessage(key)}: ${keyProblem}`);
    // `!key` is complete by itself; what follows it is the outer loop's business.
    if (negated) return newRequirement(key, '!', [], this.text);
    const lookahead = this.peek().kind;
    if (lookahead === 'end' || lookahead === ',') return newRequirement(key, 'exists', [], this.text);

    const op = this.nextOperator();
    switch (op.kind) {
      case 'in':
      case 'notin':
        return newRequirement(key, op.kind, this.valueList(), this.text);
      case '=':
      case '==':
      case '!=':
        return newRequirement(key, op.kind, [this.exactValue()], this.text);
      case '>':
        return newRequirement(key, 'gt', [this.exactValue()], this.text);
      case '<':
        return newRequirement(key, 'lt', [this.exactValue()], this.text);
      default:
        return this.fail(`${found(op)}, expected: ${binaryOperators}`);
    }
  }

  /** The value after `=`, `==`, `!=`, `>`, `<`: an identifier, or "" when the term ends there (`a=`). */
  private exactValue(): string {
    const lookahead = this.peek().kind;
    if (lookahead === 'end' || lookahead === ',') return '';
    const tok = this.next();
    if (tok.kind !== 'identifier') this.fail(`${found(tok)}, expected: identifier`);
    return tok.text;
  }

  /**
   * A parenthesised list. Like apimachinery, an empty element is the value ""
   * (`(a,)`, `(,)`). Unlike it, `()` is an error rather than a hidden `("")`:
   * an empty list is almost always an empty template expansion, and silently
   * selecting on "" would hide that mistake.
   */
  private valueList(): string[] {
    const open = this.next();
    if (open.kind !== '(') this.fail(`${found(open)}, expected: '('`);
    const values: string[] = [];
    let expectValue = true;
    for (;;) {
      const tok = this.next();
      if (tok.kind === ')') {
        if (expectValue) {
          if (values.length === 0) {
            this.fail("found ')', expected: identifier (an in/notin list needs at least one value)");
          }
          values.push('');
        }
        return values;
      }
      if (tok.kind === ',') {
        if (expectValue) values.push('');
        expectValue = true;
      } else if (tok.kind === 'identifier' && expectValue) {
        values.push(tok.text);
        expectValue = false;
      } else {
        this.fail(`${found(tok)}, expected: ${expectValue ? "',', ')' or identifier" : "',' or ')'"}`);
      }
    }
  }
}

/**
 * Parses the text form (`app=web,tier in (a,b),!canary`). Empty or whitespace-only
 * text selects everything. Throws {@link SelectorError} and nothing else; linear time.
 */
export function parseLabelSelector(text: string): LabelSelector {
  if (typeof text !== 'string') {
    throw new SelectorError(`label selector must be a string, got ${typeof text}`);
  }
  const requirements = new Parser(text).parse();
  return requirements.length === 0 ? everythingSelector : { requirements: byKey(requirements) };
}

// ---------------------------------------------------------------------------
// Matching

/** An object's `metadata.labels`. */
type LabelSet = Readonly<Record<string, string>>;

/** The label's value, reading only own string properties so `constructor` or `__proto__` keys stay labels. */
function labelValue(labels: LabelSet | undefined | null, key: string): string | undefined {
  if (labels == null || !Object.hasOwn(labels, key)) return undefined;
  const value = labels[key];
  return typeof value === 'string' ? value : undefined;
}

/** Whether one requirement holds for `labels` (apimachinery's `Requirement.Matches`). */
export function matchesRequirement(r: LabelRequirement, labels: LabelSet | undefined): boolean {
  const value = labelValue(labels, r.key);
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return value !== undefined && r.values.includes(value);
    case '!=':
    case 'notin':
      // An absent label is "not equal": `tier!=db` selects objects with no tier.
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt':
    case 'lt': {
      // A label that is not an integer never matches, as in apimachinery.
      const have = value === undefined ? undefined : parseInt64(value);
      const want = parseInt64(r.values[0]);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

/** Whether an object with these labels is selected; missing labels count as none. */
export function matchesLabels(sel: LabelSelector, labels: LabelSet | undefined): boolean {
  if (sel.nothing) return false;
  return sel.requirements.every((r) => matchesRequirement(r, labels));
}

// ---------------------------------------------------------------------------
// metav1.LabelSelector

/** The operators of a metav1.LabelSelectorRequirement. */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** The metav1.LabelSelector object form (`spec.selector` of a Deployment or ReplicaSet). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: LabelSelectorOperator; values?: string[] }[];
}

/** Options for {@link labelSelectorFromObject}. */
export interface LabelSelectorFromObjectOptions {
  /**
   * What an absent (undefined or null) selector selects. Default true: nothing, as
   * apimachinery's `LabelSelectorAsSelector` does, so a controller whose selector is
   * missing adopts no pods instead of every pod. Pass false to select everything.
   */
  nilSelectsNothing?: boolean;
}

const objectOperators: Record<LabelSelectorOperator, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts a metav1.LabelSelector (apimachinery's `LabelSelectorAsSelector`): an
 * empty object selects everything, an absent one nothing (see the option). The
 * object usually arrives as untrusted JSON, so its shape is checked too; any
 * problem throws {@link SelectorError}.
 */
export function labelSelectorFromObject(
  sel: LabelSelectorObject | undefined | null,
  options: LabelSelectorFromObjectOptions = {},
): LabelSelector {
  if (sel == null) return (options.nilSelectsNothing ?? true) ? nothingSelector : everythingSelector;
  if (typeof sel !== 'object') throw new SelectorError('label selector must be an object');
  const requirements: LabelRequirement[] = [];
  const matchLabels: unknown = sel.matchLabels ?? {};
  if (typeof matchLabels !== 'object' || matchLabels === null || Array.isArray(matchLabels)) {
    throw new SelectorError('matchLabels must be an object of string values');
  }
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string') {
      throw new SelectorError(`matchLabels[${quoteForMessage(key)}] must be a string, got ${typeof value}`);
    }
    requirements.push(newRequirement(key, '=', [value]));
  }
  const matchExpressions: unknown = sel.matchExpressions ?? [];
  if (!Array.isArray(matchExpressions)) throw new SelectorError('matchExpressions must be an array');
  for (const expr of matchExpressions as unknown[]) {
    const { key, operator, values } = (expr ?? {}) as { key?: unknown; operator?: unknown; values?: unknown };
    if (typeof key !== 'string') throw new SelectorError('matchExpressions[].key must be a string');
    const op =
      typeof operator === 'string' && Object.hasOwn(objectOperators, operator) ? operator : undefined;
    if (op === undefined) {
      throw new SelectorError(`${quoteForMessage(String(operator))} is not a valid label selector operator`);
    }
    const list = values ?? [];
    if (!Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
      throw new SelectorError(`matchExpressions[].values for key ${quoteForMessage(key)} must be strings`);
    }
    requirements.push(newRequirement(key, objectOperators[op as LabelSelectorOperator], list as string[]));
  }
  return requirements.length === 0 ? everythingSelector : { requirements: byKey(requirements) };
}

// ---------------------------------------------------------------------------
// Text form

/** One requirement's text, as apimachinery's `Requirement.String`. */
function formatRequirement(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      // A lone "" is written `(,)`, which every parser reads back as {""}; apimachinery's `()` we reject.
      return `${r.key} ${r.operator} (${r.values.length === 1 && r.values[0] === '' ? ',' : r.values.join(',')})`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
    default:
      return `${r.key}${r.operator}${r.values[0]}`;
  }
}

/**
 * The canonical text form (`app=web,tier in (a,b)`), as kube prints a Scale's
 * `status.selector`; {@link parseLabelSelector} reads it back to an equal selector.
 * {@link nothingSelector} prints as "" like apimachinery's, which parses back as
 * everything: check `nothing` before sending a selector as text.
 */
export function formatLabelSelector(sel: LabelSelector): string {
  return sel.requirements.map(formatRequirement).join(',');
}
