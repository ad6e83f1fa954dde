/**
 * Decoding of YAML request bodies (`application/yaml`, server-side apply's
 * `application/apply-patch+yaml`) without letting a hostile body take the
 * process down.
 */
import { StatusError } from '../../protocol/status.js';
import { checkNestingDepth } from './http-io.js';

/**
 * The deepest YAML structure handed to the parser. The `yaml` package parses
 * recursively and runs out of stack at about 800 levels; when the overflow
 * lands inside V8's regexp compiler the whole process aborts with a fatal
 * out-of-memory error instead of a catchable RangeError. A manifest needs a
 * few dozen levels, so this leaves a wide margin both ways.
 */
export const MAX_YAML_DEPTH = 256;

/** The YAML parser, loaded once, on the first body that is not JSON. */
let yamlModule: Promise<typeof import('yaml')> | undefined;

/**
 * Parses a YAML (or JSON, which YAML includes) body. JSON is tried first: it
 * is what kubectl sends even as `apply-patch+yaml`, and `JSON.parse` is not
 * recursive. YAML is parsed only after an upper bound of its nesting, taken
 * from the iterative lexer's tokens, is under {@link MAX_YAML_DEPTH}.
 */
export async function parseYamlBody(body: Buffer): Promise<unknown> {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    yamlModule ??= import('yaml');
    const { Lexer, parse } = await yamlModule;
    const depth = yamlDepthBound(new Lexer().lex(text));
    if (depth > MAX_YAML_DEPTH) {
      throw StatusError.of(
        'BadRequest',
        `the request body is not valid YAML: nested deeper than ${MAX_YAML_DEPTH} levels`,
      );
    }
    try {
      value = parse(text, GO_YAML);
    } catch (err) {
      throw StatusError.of(
        'BadRequest',
        `the request body is not valid YAML: ${(err as Error).message.split('\n')[0]}`,
      );
    }
  }
  checkNestingDepth(value);
  return value;
}

/**
 * YAML as sigs.k8s.io/yaml reads it (go-yaml v2): YAML 1.1 scalars (`yes`, `no`, `on`, `off`,
 * `y`, `n` are booleans; `0755` is octal), but timestamps and base-60 numbers stay strings, and
 * a repeated key replaces the earlier one (the strict reading that refuses it is the caller's,
 * {@link yamlDuplicateKeys}).
 */
const GO_YAML = {
  version: '1.1',
  uniqueKeys: false,
  customTags: (tags: import('yaml').Tags) =>
    tags.filter((t) => {
      const tag = t as { tag?: string; format?: string };
      return tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME';
    }),
} as const;

/**
 * The keys a YAML (or JSON) body repeats within one mapping, as go-yaml v2's strict decoding
 * reports them (`line 3: key "data" already set in map`), in order. The line is the repeated
 * value's (decode.go `setMapIndex` is handed the value node): the key's own for a value on its
 * line, the next content line's for a block mapping or sequence below it.
 */
export async function yamlDuplicateKeys(body: Buffer): Promise<string[]> {
  yamlModule ??= import('yaml');
  const { parseDocument } = await yamlModule;
  const text = body.toString('utf8');
  const doc = parseDocument(text, { ...GO_YAML, uniqueKeys: true });
  const out: string[] = [];
  for (const e of doc.errors) {
    if (e.code !== 'DUPLICATE_KEY') continue;
    const m = /^"((?:[^"\\]|\\.)*)"|^'((?:[^']|'')*)'|^([^:\s,{}[\]]+)/.exec(text.slice(e.pos[0]));
    const key = m?.[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : (m?.[2] ?? m?.[3] ?? '');
    const line = (e.linePos?.[0].line ?? 0) + linesToValue(text, e.pos[0] + (m?.[0].length ?? 0));
    out.push(`line ${line}: key ${JSON.stringify(key)} already set in map`);
  }
  return out;
}

/**
 * How many lines below a key, ending at `from` in `text`, its value starts: 0 when something
 * follows the key's colon on its line, else the lines down to the next one with content (blank
 * and comment lines skipped).
 */
function linesToValue(text: string, from: number): number {
  const sameLine = /^[ \t]*:?[ \t]*(?:#.*)?(\r?\n|$)/.exec(text.slice(from));
  if (!sameLine?.[1]) return 0;
  const below = /^(?:[ \t]*(?:#.*)?\r?\n)*/.exec(text.slice(from + sameLine[0].length));
  return 1 + (below?.[0].match(/\n/g)?.length ?? 0);
}

/**
 * An upper bound of a YAML document's nesting from its lexer tokens: open
 * flow collections, plus on each line the indentation width and the block
 * indicators (`-`, `?`, `:`) that can each open a level. Quoted and block
 * scalars are single tokens, so their content never counts.
 */
export function yamlDepthBound(tokens: Iterable<string>): number {
  let flow = 0;
  let line = 0;
  let lineStart = true;
  let max = 0;
  for (const token of tokens) {
    if (token === '\n' || token === '\r\n') {
      line = 0;
      lineStart = true;
      continue;
    }
    if (lineStart && /^[ \t]+$/.test(token)) line += token.length;
    else if (token === '[' || token === '{') flow++;
    else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
    else if (token === '-' || token === '?' || token === ':') line++;
    lineStart = false;
    max = Math.max(max, flow + line);
  }
  return max;
}
