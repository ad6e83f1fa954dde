/**
 * Lazy decoding (`lazyDecode: true`): a cache needs only an object's
 * namespace, name and resourceVersion, so a watch line or list item is not
 * JSON-parsed when it arrives. A byte scanner checks its structure (strings
 * terminated, brackets balanced, the envelope and `metadata` well formed),
 * reads those three fields, and keeps the object's JSON text; the object is
 * parsed on the first read of any of its properties, once, transparently
 * (a Proxy). Handlers that only take the key (`objectKey`), and objects that
 * are replaced before anything reads them, never cost a parse.
 *
 * Limits, all for objects that are never read as they stand: a malformed
 * object body (no API server sends one) throws a {@link JsonLinesError}
 * from the first property read instead of failing the stream; a lazy object
 * cannot be passed to `structuredClone` or frozen (clone `JSON.parse(
 * JSON.stringify(o))` instead). Anything the scanner does not expect (other
 * event types, escaped keys, non-string metadata fields) is parsed eagerly.
 */
import type { KubeList, KubeObject } from '../protocol/events.js';
import { JsonLinesError, parseJsonLine } from '../protocol/jsonlines.js';

/** The fields a cache keys and compares objects by. */
export interface CacheMeta {
  name?: string;
  namespace?: string;
  resourceVersion?: string;
}

const LAZY = Symbol('watchmark.lazyObject');
const utf8 = new TextDecoder();

/** A lazy object's state; also the Proxy's target, so `util.inspect` shows the decoded object. */
class LazyObject {
  value: KubeObject | undefined;
  readonly text: string;
  readonly meta: CacheMeta;
  /** Where the text started in its stream or list, for errors. */
  readonly offset: number;

  constructor(text: string, meta: CacheMeta, offset: number) {
    this.text = text;
    this.meta = meta;
    this.offset = offset;
  }

  decode(): KubeObject {
    if (this.value === undefined) {
      try {
        this.value = JSON.parse(this.text) as KubeObject;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new JsonLinesError(
          `malformed JSON object at byte ${this.offset}: ${reason}`,
          this.offset,
          this.text.slice(0, 60),
          [],
          { cause: err },
        );
      }
    }
    return this.value;
  }

  // util.inspect formats a Proxy's target, calling this with the Proxy as `this`.
  [Symbol.for('nodejs.util.inspect.custom')](this: { [LAZY]: LazyObject }): KubeObject {
    return this[LAZY].decode();
  }
}

// Every trap but the private LAZY key decodes first and then acts on the plain object.
const handler: ProxyHandler<LazyObject> = {
  get: (lazy, key) => (key === LAZY ? lazy : Reflect.get(lazy.decode(), key)),
  set: (lazy, key, value) => Reflect.set(lazy.decode(), key, value),
  has: (lazy, key) => Reflect.has(lazy.decode(), key),
  deleteProperty: (lazy, key) => Reflect.deleteProperty(lazy.decode(), key),
  ownKeys: (lazy) => Reflect.ownKeys(lazy.decode()),
  getOwnPropertyDescriptor: (lazy, key) => Reflect.getOwnPropertyDescriptor(lazy.decode(), key),
  defineProperty: (lazy, key, descriptor) => Reflect.defineProperty(lazy.decode(), key, descriptor),
  getPrototypeOf: (lazy) => Reflect.getPrototypeOf(lazy.decode()),
};

/** The namespace, name and resourceVersion of an object, without decoding it if it is lazy. */
export function cacheMeta(object: KubeObject): CacheMeta | undefined {
  const lazy = (object as { [LAZY]?: LazyObject })[LAZY];
  if (!lazy) return object.metadata;
  return lazy.value ? lazy.value.metadata : lazy.meta;
}

/** Whether `object` is lazy and not yet decoded (for tests and metrics). */
export function isUndecoded(object: KubeObject): boolean {
  const lazy = (object as { [LAZY]?: LazyObject })[LAZY];
  return lazy !== undefined && lazy.value === undefined;
}

// ---------------------------------------------------------------- the byte scanner

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const KEY_METADATA = ascii('metadata');
const KEY_NAME = ascii('name');
const KEY_NAMESPACE = ascii('namespace');
const KEY_RESOURCE_VERSION = ascii('resourceVersion');
const KEY_TYPE = ascii('type');
const KEY_OBJECT = ascii('object');
const KEY_ITEMS = ascii('items');
const LAZY_TYPES = ['ADDED', 'MODIFIED', 'DELETED'].map((t) => [ascii(t), t] as const);

/**
 * The scanner's state: module-level, so scanning allocates nothing. Scanning
 * is synchronous and never re-entered.
 */
const EMPTY: Uint8Array = new Uint8Array(0);
let b = EMPTY;
let end = 0;
let pos = 0;
/** The last string scanned: contents [strStart, strEnd), and whether it holds escapes. */
let strStart = 0;
let strEnd = 0;
let strEscaped = false;
/** The metadata fields found: [start, end) of each value's contents; start -1 = absent. */
const meta = { name: -1, nameEnd: 0, namespace: -1, namespaceEnd: 0, rv: -1, rvEnd: 0, escaped: false };

// The loops below work on local copies of the state: module variables live in
// a context, and a load and a store per byte would triple the scanning time.

function ws(): void {
  const bytes = b;
  let i = pos;
  while (i < end) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  pos = i;
}

/** At a quote: moves past the string. */
function scanString(): boolean {
  const bytes = b;
  const last = end;
  let i = pos + 1;
  strStart = i;
  let escaped = false;
  while (i < last) {
    const c = bytes[i++];
    if (c === QUOTE) {
      pos = i;
      strEnd = i - 1;
      strEscaped = escaped;
      return true;
    }
    if (c === BACKSLASH) {
      escaped = true;
      i++;
    }
  }
  return false;
}

/** Moves past any value: strings and brackets are matched, the rest is taken up to a delimiter. */
function skipValue(): boolean {
  ws();
  const bytes = b;
  const last = end;
  let i = pos;
  const c = bytes[i];
  if (c === QUOTE) return scanString();
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    while (i < last) {
      const d = bytes[i++];
      if (d === QUOTE) {
        while (i < last) {
          const e = bytes[i++];
          if (e === QUOTE) break;
          if (e === BACKSLASH) i++;
        }
      } else if (d === LBRACE || d === LBRACKET) depth++;
      else if (d === RBRACE || d === RBRACKET) {
        if (--depth === 0) {
          pos = i;
          return true;
        }
      }
    }
    return false;
  }
  const start = i;
  while (i < last) {
    const d = bytes[i];
    if (d === COMMA || d === RBRACE || d === RBRACKET || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09)
      break;
    i++;
  }
  pos = i;
  return i > start;
}

/** Whether the last string scanned is `key` (an escaped one is decoded to compare). */
function lastStringIs(key: Uint8Array): boolean {
  if (strEscaped) return decodeLastString() === utf8.decode(key);
  if (strEnd - strStart !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (b[strStart + i] !== key[i]) return false;
  return true;
}

function decodeLastString(): string {
  return JSON.parse(utf8.decode(b.subarray(strStart - 1, strEnd + 1))) as string;
}

/**
 * Scans `{ "key": value, ... }`, calling `member` with `pos` at each value
 * (the key is the last string scanned); `member` moves past the value.
 */
function scanObject(member: () => boolean): boolean {
  ws();
  if (b[pos] !== LBRACE) return false;
  pos++;
  ws();
  if (b[pos] === RBRACE) {
    pos++;
    return true;
  }
  for (;;) {
    ws();
    if (b[pos] !== QUOTE || !scanString()) return false;
    ws();
    if (b[pos] !== COLON) return false;
    pos++;
    ws();
    if (!member()) return false;
    ws();
    const c = b[pos++];
    if (c === RBRACE) return true;
    if (c !== COMMA) return false;
  }
}

/** A metadata member: the three fields a cache needs must be strings (anything else: scan fails, parse eagerly). */
function metadataMember(): boolean {
  const field = lastStringIs(KEY_NAME)
    ? 'name'
    : lastStringIs(KEY_NAMESPACE)
      ? 'namespace'
      : lastStringIs(KEY_RESOURCE_VERSION)
        ? 'rv'
        : undefined;
  if (!field) return skipValue();
  if (b[pos] !== QUOTE || !scanString()) return false;
  if (field === 'name') [meta.name, meta.nameEnd] = [strStart, strEnd];
  else if (field === 'namespace') [meta.namespace, meta.namespaceEnd] = [strStart, strEnd];
  else [meta.rv, meta.rvEnd] = [strStart, strEnd];
  if (strEscaped) meta.escaped = true;
  return true;
}

/** An object member: `metadata` is scanned field by field (the last one wins, as in JSON.parse), the rest skipped. */
function objectMember(): boolean {
  if (lastStringIs(KEY_METADATA) && b[pos] === LBRACE) return scanObject(metadataMember);
  return skipValue();
}

/** Scans one object at `pos`, filling `meta`. */
function scanKubeObject(): boolean {
  meta.name = meta.namespace = meta.rv = -1;
  meta.escaped = false;
  return scanObject(objectMember);
}

/** The lazy object for the bytes [start, pos) just scanned. */
function lazyObject(start: number, offset: number): KubeObject {
  const text = utf8.decode(b.subarray(start, pos));
  // ASCII text (by far the common case) maps byte offsets to string offsets one to one.
  const simple = !meta.escaped && text.length === pos - start;
  const field = (from: number, to: number) => {
    if (from < 0) return undefined;
    if (simple) return text.slice(from - start, to - start);
    return JSON.parse(utf8.decode(b.subarray(from - 1, to + 1))) as string;
  };
  const fields: CacheMeta = {
    name: field(meta.name, meta.nameEnd),
    namespace: field(meta.namespace, meta.namespaceEnd),
    resourceVersion: field(meta.rv, meta.rvEnd),
  };
  return new Proxy(new LazyObject(text, fields, offset + start), handler) as unknown as KubeObject;
}

function reset(bytes: Uint8Array): void {
  // One element kind for every input (Buffers are a Uint8Array subclass): keeps the loops monomorphic.
  b = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  end = bytes.length;
  pos = 0;
}

/** Drops the reference to the last input, so the scanner does not keep a chunk alive. */
function release(): void {
  b = EMPTY;
  end = 0;
}

/**
 * Decodes one watch-stream line (`{"type":...,"object":{...}}`): ADDED,
 * MODIFIED and DELETED objects lazily, anything else eagerly. A
 * `JsonLinesDecoder` line decoder: malformed lines throw a `JsonLinesError`.
 */
export function decodeWatchLineLazily(bytes: Uint8Array, offset: number): unknown {
  reset(bytes);
  try {
    let type: string | undefined;
    let object: KubeObject | undefined;
    let eager = false;
    const envelopeMember = (): boolean => {
      if (lastStringIs(KEY_TYPE)) {
        if (b[pos] !== QUOTE || !scanString()) return false;
        type = LAZY_TYPES.find(([t]) => lastStringIs(t))?.[1];
        if (!type) eager = true;
        return true;
      }
      if (lastStringIs(KEY_OBJECT) && !eager) {
        const start = pos;
        if (!scanKubeObject()) return false;
        object = lazyObject(start, offset);
        return true;
      }
      return skipValue();
    };
    if (scanObject(envelopeMember)) {
      ws();
      if (pos === end && !eager && type && object) return { type, object };
    }
    return parseJsonLine(utf8.decode(bytes), offset);
  } finally {
    release();
  }
}

/**
 * Decodes a list answer with lazy items; falls back to `JSON.parse` (and its
 * SyntaxError) for anything unexpected.
 */
export function decodeListLazily(bytes: Uint8Array): KubeList {
  reset(bytes);
  try {
    const list: Record<string, unknown> = {};
    const listMember = (): boolean => {
      if (lastStringIs(KEY_ITEMS) && b[pos] === LBRACKET) {
        const items: KubeObject[] = [];
        list.items = items;
        pos++;
        ws();
        if (b[pos] === RBRACKET) {
          pos++;
          return true;
        }
        for (;;) {
          ws();
          const start = pos;
          if (!scanKubeObject()) return false;
          items.push(lazyObject(start, 0));
          ws();
          const c = b[pos++];
          if (c === RBRACKET) return true;
          if (c !== COMMA) return false;
        }
      }
      const key = strEscaped ? decodeLastString() : utf8.decode(b.subarray(strStart, strEnd));
      const start = pos;
      if (!skipValue()) return false;
      list[key] = JSON.parse(utf8.decode(b.subarray(start, pos)));
      return true;
    };
    if (scanObject(listMember)) {
      ws();
      if (pos === end) return list as unknown as KubeList;
    }
    return JSON.parse(utf8.decode(bytes)) as KubeList;
  } finally {
    release();
  }
}
