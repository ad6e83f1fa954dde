/**
 * The parser of kubectl's JSONPath templates, ported from k8s.io/client-go
 * util/jsonpath/parser.go (`Parser.Parse` and its `parse*` steps), so that a
 * CRD's `additionalPrinterColumns[].jsonPath` means here what it means to
 * kube-apiserver. Its quirks are kept on purpose: `['a.b']` is re-parsed as
 * `.a.b` (parseArray's dict key), a dot inside a field name needs `\.`, and a
 * `[*]` is the slice `[:]`. Positions count UTF-16 units where Go counts bytes,
 * which only differs inside non-ASCII text.
 */

/** A slice bound of an ArrayNode (parser.go `ParamsEntry`). */
export interface SliceParam {
  value: number;
  known: boolean;
  /** The end of `[i]`, derived as i+1 (a negative i wraps at evaluation). */
  derived: boolean;
}

/** One node of a parsed template (client-go util/jsonpath/node.go). */
export type JsonPathNode =
  | { type: 'list'; nodes: JsonPathNode[] }
  | { type: 'text'; text: string }
  | { type: 'field'; name: string }
  | { type: 'array'; params: [SliceParam, SliceParam, SliceParam] }
  | { type: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] }
  | { type: 'identifier'; name: string };

/** A sequence of nodes: the template's root, one `{...}` action, a filter side. */
export type ListNode = { type: 'list'; nodes: JsonPathNode[] };

/** A template that does not parse; the message is client-go's. */
export class JsonPathSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathSyntaxError';
  }
}

const EOF = '';
const dictKeyRex = /^'([^']*)'$/;
const sliceOperatorRex = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const filterRex = /^([^!<>=]+)([!<>=]+)(.+?)$/s;

const isSpace = (r: string): boolean => r === ' ' || r === '\t';
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string): boolean =>
  isSpace(r) || isEndOfLine(r) || [EOF, '.', ',', '[', ']', '$', '@', '{', '}'].includes(r);
const fail = (message: string): never => {
  throw new JsonPathSyntaxError(message);
};
const list = (): ListNode => ({ type: 'list', nodes: [] });

/** parser.go `Parse`: the template's root list, text and `{...}` actions in order. Throws {@link JsonPathSyntaxError}. */
export function parseJsonPath(text: string): ListNode {
  return new Parser(text).parse();
}

/** parser.go `parseAction`: `text` parsed as the inside of one action. */
function parseAction(text: string): ListNode {
  const root = parseJsonPath(`{${text}}`);
  return root.nodes[0] as ListNode;
}

class Parser {
  private readonly root = list();
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos) as number);
    this.width = r.length;
    this.pos += r.length;
    return r;
  }

  private peek(): string {
    const r = this.next();
    this.pos -= this.width;
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        this.parseLeftDelim(cur);
        return;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += 1;
    this.consumeText();
    const node = list();
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  // Each step ends by parsing the rest of the action, as in Go; a loop keeps the stack flat.
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) this.parseFilter(cur);
      else if (rest.startsWith('..')) this.parseRecursive(cur);
      else {
        const r = this.next();
        if (r === EOF || isEndOfLine(r)) fail('unclosed action');
        else if (r === ' ' || r === '@' || r === '$') this.consumeText();
        else if (r === '[') this.parseArray(cur);
        else if (r === '"' || r === "'") this.parseQuote(cur, r);
        else if (r === '.') this.parseField(cur);
        else if (r === '+' || r === '-' || isDigit(r)) {
          this.backup();
          this.parseNumber(cur);
        } else if (isAlphaNumeric(r)) {
          this.backup();
          this.parseIdentifier(cur);
        } else {
          const cp = (r.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
          fail(`unrecognized character in action: U+${cp} '${r}'`);
        }
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next()));
    this.backup();
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') fail('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c !== '.' && !isDigit(c)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    // strconv.Atoi, then strconv.ParseFloat.
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ type: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ type: 'float', value: Number(value) });
    else fail(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') fail('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const strs = text.split(',');
    if (strs.length > 1) {
      cur.nodes.push({ type: 'union', nodes: strs.map((s) => parseAction(`[${s.trim()}]`)) });
      return;
    }
    const key = dictKeyRex.exec(text);
    if (key) {
      // The key is parsed as a field path: `['a.b']` reads `.a.b`, as upstream.
      cur.nodes.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }
    const m = sliceOperatorRex.exec(text);
    if (!m) throw new JsonPathSyntaxError(`invalid array index ${text}`);
    const params: [SliceParam, SliceParam, SliceParam] = [0, 1, 2].map(() => ({
      value: 0,
      known: false,
      derived: false,
    })) as [SliceParam, SliceParam, SliceParam];
    for (let i = 0; i < 3; i++) {
      let v = m[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params[i].known = false;
        else {
          if (!/^-?\d+$/.test(v)) fail(`array index ${v} is not a number`);
          params[i].known = true;
          params[i].value = Number(v);
        }
      } else if (i === 1) {
        params[i] = { known: true, value: params[0].value + 1, derived: true };
      }
    }
    cur.nodes.push({ type: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') fail('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') fail('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = filterRex.exec(text);
    if (!m) cur.nodes.push({ type: 'filter', left: parseAction(text), right: list(), operator: 'exists' });
    else {
      cur.nodes.push({
        type: 'filter',
        left: parseAction(m[1] as string),
        right: parseAction(m[3] as string),
        operator: m[2] as string,
      });
    }
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') fail('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    cur.nodes.push({ type: 'text', text: unquoteExtend(value) });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }
}

const simpleEscapes: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/** parser.go `UnquoteExtend`: a Go-quoted string in single or double quotes (strconv.UnquoteChar escapes). */
function unquoteExtend(s: string): string {
  const quote = s[0];
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === quote) fail(`unquote string ${s} error invalid syntax`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    const hex = { x: 2, u: 4, U: 8 }[e];
    if (e in simpleEscapes && (e === quote || (e !== "'" && e !== '"'))) out += simpleEscapes[e];
    else if (
      hex !== undefined &&
      /^[0-9a-fA-F]+$/.test(body.slice(i + 1, i + 1 + hex)) &&
      body.length > i + hex
    ) {
      out += String.fromCodePoint(Number.parseInt(body.slice(i + 1, i + 1 + hex), 16));
      i += hex;
    } else if (/^[0-7]{3}$/.test(body.slice(i, i + 3))) {
      out += String.fromCharCode(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else fail(`unquote string ${s} error invalid syntax`);
  }
  return out;
}
