/**
 * Repeated keys in a JSON body. kube-apiserver decodes a create or update body with
 * sigs.k8s.io/json's strict decoder under `fieldValidation=Warn|Strict`: each repeated key is a
 * strict error, `duplicate field "spec.replicas"`. Whatever the directive, the body is decoded
 * into Go structs as encoding/json does: a repeated object key decodes into the struct or map the
 * first one filled (their fields merge), any other repeated value replaces the earlier one.
 */
import type { KubeObject } from '../../protocol/events.js';

const duplicatesOfBody = new WeakMap<object, readonly string[]>();

/** The repeated fields `readObject` found in `body`'s JSON, in document order. */
export function duplicateFieldsOf(body: object): readonly string[] {
  return duplicatesOfBody.get(body) ?? [];
}

/**
 * Decodes valid JSON `text` that `JSON.parse` already accepted: the value as is when no key
 * repeats (the common case, a scan of the text), else as Go decodes it, the repeated paths
 * remembered for {@link duplicateFieldsOf}.
 */
export function withDuplicateFields(text: string, parsed: unknown): unknown {
  if (!mayRepeat(text)) return parsed;
  const duplicates: string[] = [];
  const value = new GoJson(text, duplicates).document();
  if (duplicates.length === 0) return parsed;
  if (value !== null && typeof value === 'object') duplicatesOfBody.set(value as KubeObject, duplicates);
  return value;
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

/** A recursive-descent reader of valid JSON with encoding/json's treatment of repeated keys. */
class GoJson {
  private i = 0;
  constructor(
    private readonly text: string,
    private readonly duplicates: string[],
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
      const v = this.value(field);
      if (Object.hasOwn(out, key)) {
        this.duplicates.push(field);
        out[key] = merged(out[key], v);
      } else out[key] = v;
      this.ws();
      if (this.text[this.i++] === '}') return out;
    }
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
