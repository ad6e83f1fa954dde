/**
 * The text form of a label selector, the `labelSelector` query parameter:
 * apimachinery's labels.Lexer and labels.Parser, so a selector means here
 * exactly what it means to kube-apiserver, and `Requirement.String` to print
 * one back. The one deliberate difference (`in ()`) is noted where it is applied.
 */
import {
  byKey,
  everythingSelector,
  type LabelRequirement,
  type LabelSelector,
  labelKeyProblem,
  newRequirement,
  quoteForMessage,
  SelectorError,
} from './label-requirements.js';

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

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

/**
 * How a token reads in an error message, as apimachinery's parser words it
 * (k8s.io/apimachinery/pkg/labels/selector.go: `found '%s'`, the end of the
 * text being the empty literal).
 */
function found(tok: Token): string {
  return `found '${quoteForMessage(tok.text).slice(1, -1)}'`;
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
        this.fail(`${found(tok)}, expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') this.fail(`${found(after)}, expected: ',' or 'end of string'`);
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
   * (`(a,)`, `(,)`), and `()` is `("")` (selector.go `parseValues`).
   */
  private valueList(): string[] {
    const open = this.next();
    if (open.kind !== '(') this.fail(`${found(open)} expected: '('`);
    const values: string[] = [];
    let expectValue = true;
    for (;;) {
      const tok = this.next();
      if (tok.kind === ')') {
        if (expectValue) values.push('');
        return values;
      }
      if (tok.kind === ',') {
        if (expectValue) values.push('');
        expectValue = true;
      } else if (tok.kind === 'identifier' && expectValue) {
        values.push(tok.text);
        expectValue = false;
      } else {
        // selector.go words the first element's error and later ones differently.
        const expected =
          values.length === 0 ? "',', ')' or identifier" : expectValue ? "',', or identifier" : "',' or ')'";
        this.fail(`${found(tok)}, expected: ${expected}`);
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
      // A lone "" is written `(,)`, which every parser reads back as {""}, as it does `()`.
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
