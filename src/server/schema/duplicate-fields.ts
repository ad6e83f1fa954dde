/**
 * Repeated keys in a JSON body. kube-apiserver decodes a body with sigs.k8s.io/json's strict
 * decoder under `fieldValidation=Warn|Strict`: each repeated key is a strict error, `duplicate
 * field "spec.replicas"`, reported once per path (kubernetes_patch.go `saveStrictError` dedupes).
 * Whatever the directive, a body decodes as its Go target decodes it:
 *
 * - a built-in kind's create or update body into Go structs, as encoding/json does: a repeated
 *   object key decodes into the struct or map the first one filled (their fields merge), any
 *   other repeated value replaces the earlier one (`'merge'`);
 * - a custom resource's body, and a merge or strategic merge patch, into `map[string]any`: the
 *   later value replaces the earlier one whole, as `JSON.parse` does (`'replace'`).
 */
import type { KubeObject } from '../../protocol/events.js';
import { goQuote } from './go-text.js';

/**
 * Where a body's repeated keys stand: each repeated field with the place of the key that repeats
 * it, and the place of each key path's first occurrence (a place is the key's ordinal among the
 * document's keys), so the unknown fields a check finds can be put among them.
 */
interface RepeatedFields {
  duplicates: readonly StrictFieldError[];
  firstAt: ReadonlyMap<string, number>;
}

const repeatedInBody = new WeakMap<object, RepeatedFields>();

/**
 * A YAML body's repeated keys in go-yaml v2's words (`line 8: key "replicas" already set in
 * map`): the serializer converts a YAML body to JSON once more, strictly, under Warn and Strict
 * (runtime/serializer/json/json.go `unmarshal`: `yaml.YAMLToJSONStrict`), and its error is the
 * first strict error, before the JSON decoder's.
 */
const yamlRepeatsOfBody = new WeakMap<object, readonly string[]>();

/** Remembers `repeats`, the repeated keys of the YAML `body` was read from. */
export function setYamlDuplicateKeys(body: object, repeats: readonly string[]): void {
  if (repeats.length > 0) yamlRepeatsOfBody.set(body, repeats);
}

/** The repeated keys of the YAML `body` was read from, as go-yaml v2's strict decoding words them. */
export function yamlDuplicateKeysOf(body: object): readonly string[] {
  return yamlRepeatsOfBody.get(body) ?? [];
}

/** How a repeated key's values combine: as Go struct fields (`merge`) or map entries (`replace`). */
export type RepeatedKeys = 'merge' | 'replace';

/** The repeated fields `readObject` found in `body`'s JSON, in document order. */
export function duplicateFieldsOf(body: object): readonly string[] {
  return repeatedInBody.get(body)?.duplicates.map((e) => e.path) ?? [];
}

/**
 * A typed decode's strict errors, as sigs.k8s.io/json reports them while it decodes `body` in
 * document order (decode.go `object`, kubernetes_patch.go `saveStrictError`): an unknown field
 * where its key first stands, a repeated key at its second occurrence, each once, at most 100.
 * `unknown` are the paths of the unknown fields a check of the decoded body found. A key
 * repeated inside an unknown field, or the unknown field's own key repeated, is no error: Go
 * skips an unknown field's value unread and checks only known fields for repeats.
 */
export function typedStrictErrors(body: object, unknown: readonly string[]): StrictFieldError[] {
  const unknownErrors = unknown.map((path): StrictFieldError => ({ type: 'unknown field', path }));
  const repeated = repeatedInBody.get(body);
  if (!repeated) return unknownErrors;
  const unknownPaths = new Set(unknown);
  const placed = [
    ...unknownErrors.map((e) => ({ ...e, at: repeated.firstAt.get(e.path) ?? Number.MAX_SAFE_INTEGER })),
    ...repeated.duplicates
      .filter((e) => !atOrInside(e.path, unknownPaths))
      .map((e) => ({ ...e, at: e.at ?? Number.MAX_SAFE_INTEGER })),
  ];
  // Array.prototype.sort is stable: unknown fields without a place keep the check's order, last.
  placed.sort((a, b) => a.at - b.at);
  return placed.slice(0, MAX_STRICT_ERRORS);
}

/** Whether `path` is one of `paths` or inside one (`spec.bogus.a`, `spec.bogus[0]` in `spec.bogus`). */
function atOrInside(path: string, paths: ReadonlySet<string>): boolean {
  for (let end = path.length; end > 0; ) {
    if (paths.has(path.slice(0, end))) return true;
    end = Math.max(path.lastIndexOf('.', end - 1), path.lastIndexOf('[', end - 1));
  }
  return false;
}

/**
 * Decodes valid JSON `text` that `JSON.parse` already accepted: the value as is when no key
 * repeats (the common case, a scan of the text), else as Go decodes it (`repeated`), the
 * repeated paths remembered for {@link duplicateFieldsOf}.
 */
export function withDuplicateFields(
  text: string,
  parsed: unknown,
  repeated: RepeatedKeys = 'merge',
): unknown {
  if (!mayRepeat(text)) return parsed;
  const found: StrictFieldError[] = [];
  const firstAt = new Map<string, number>();
  const decoded = new GoJson(text, found, repeated === 'merge', undefined, firstAt).document();
  if (found.length === 0) return parsed;
  const value = repeated === 'merge' ? decoded : parsed;
  if (value !== null && typeof value === 'object')
    repeatedInBody.set(value as KubeObject, { duplicates: found, firstAt });
  return value;
}

/** One strict decoding error of sigs.k8s.io/json (kubernetes_patch.go `strictError`). */
export interface StrictFieldError {
  type: 'duplicate field' | 'unknown field';
  path: string;
  /** Where the decoder met it: the ordinal of its key among the document's keys. */
  at?: number;
}

/** A strict error in the decoder's words (`%s %q`): `duplicate field "spec.replicas"`. */
export function strictErrorText(e: StrictFieldError): string {
  return `${e.type} ${goQuote(e.path)}`;
}

/** A repeated key's strict error in the decoder's words. */
export function duplicateField(path: string): string {
  return strictErrorText({ type: 'duplicate field', path });
}

/**
 * The strict errors of valid JSON `text` decoded into `map[string]any`, except that an object
 * at a path `structFields` names is a Go struct with those fields only (an unknown one is an
 * error and its value is skipped unread). In document order, each once, at most 100.
 */
export function strictFieldErrors(
  text: string,
  structFields?: (path: string) => ReadonlySet<string> | undefined,
): StrictFieldError[] {
  if (!structFields && !mayRepeat(text)) return [];
  const found: StrictFieldError[] = [];
  new GoJson(text, found, false, structFields).document();
  return found;
}

/** Whether any object of `text` has a key twice: a scan of keys per object, strings skipped. */
function mayRepeat(text: string): boolean {
  const stack: Array<Set<string> | null> = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      const top = stack[stack.length - 1];
      if (top) {
        // A key is a string followed by a colon.
        let k = j + 1;
        while (k < n && text.charCodeAt(k) <= 0x20) k++;
        if (text.charCodeAt(k) === 0x3a) {
          const key = text.slice(i, j + 1);
          if (top.has(key)) return true;
          top.add(key);
        }
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b) stack.push(new Set());
    else if (c === 0x5b) stack.push(null);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    i++;
  }
  return false;
}

/** The strict errors sigs.k8s.io/json keeps of one decode ("prevent excessive numbers"). */
const MAX_STRICT_ERRORS = 100;

/** A recursive-descent reader of valid JSON with encoding/json's treatment of repeated keys. */
class GoJson {
  private i = 0;
  /** The errors reported so far: the decoder reports each once. */
  private readonly seen = new Set<string>();
  /** Above 0 inside a value Go skips unread (an unknown struct field's): nothing is reported. */
  private skipping = 0;
  /** The keys read so far: the next key's place in the document. */
  private keys = 0;
  constructor(
    private readonly text: string,
    private readonly found: StrictFieldError[],
    /** Whether a repeated object merges into the earlier one (a Go struct) or replaces it (a map). */
    private readonly mergeRepeated: boolean,
    private readonly structFields?: (path: string) => ReadonlySet<string> | undefined,
    /** When given, filled with each key path's first place. */
    private readonly firstAt?: Map<string, number>,
  ) {}

  document(): unknown {
    return this.value('');
  }

  private ws(): void {
    while (this.i < this.text.length && this.text.charCodeAt(this.i) <= 0x20) this.i++;
  }

  private value(path: string): unknown {
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') return this.string();
    const start = this.i;
    while (this.i < this.text.length && !',}] \t\r\n'.includes(this.text[this.i] as string)) this.i++;
    return JSON.parse(this.text.slice(start, this.i));
  }

  private string(): string {
    const start = this.i;
    this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === '\\' ? 2 : 1;
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  private object(path: string): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    const fields = this.structFields?.(path);
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.i++; // ':'
      const field = path === '' ? key : `${path}.${key}`;
      const at = this.keys++;
      if (this.firstAt && !this.firstAt.has(field)) this.firstAt.set(field, at);
      if (fields && !fields.has(key)) {
        this.report('unknown field', field, at);
        this.skipping++;
        this.value(field);
        this.skipping--;
      } else {
        // A repeated key is reported when it is read, before its value is.
        const repeated = Object.hasOwn(out, key);
        if (repeated) this.report('duplicate field', field, at);
        const v = this.value(field);
        out[key] = repeated && this.mergeRepeated ? merged(out[key], v) : v;
      }
      this.ws();
      if (this.text[this.i++] === '}') return out;
    }
  }

  /** sigs.k8s.io/json `saveStrictError`: each error once, at most 100 of them. */
  private report(type: StrictFieldError['type'], path: string, at: number): void {
    const key = `${type} ${path}`;
    if (this.skipping > 0 || this.seen.has(key) || this.found.length >= MAX_STRICT_ERRORS) return;
    this.seen.add(key);
    this.found.push({ type, path, at });
  }

  private array(path: string): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${path}[${out.length}]`));
      this.ws();
      if (this.text[this.i++] === ']') return out;
    }
  }
}

/** A repeated key's value as a Go struct or map field ends up: objects merge, the rest is replaced. */
function merged(earlier: unknown, later: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(earlier) || !isObject(later)) return later;
  const out = { ...earlier };
  for (const [k, v] of Object.entries(later)) out[k] = k in out ? merged(out[k], v) : v;
  return out;
}
