/**
 * Lazy decoding (`lazyDecode: true`): a cache needs only an object's
 * namespace, name and resourceVersion, so a watch line or list item is not
 * JSON-parsed when it arrives. A byte scanner reads those three fields and
 * keeps the object's JSON text; the object is parsed on the first read of
 * any of its properties, once, transparently (a Proxy). Handlers that only
 * take the key (`objectKey`), and objects replaced before anything reads
 * them, never cost a parse.
 *
 * How much is checked up front: a list item, or a watch line in any other
 * shape, is scanned whole (strings terminated, brackets balanced, envelope
 * and metadata well formed). A watch line exactly as API servers write it,
 * `{"type":"MODIFIED","object":{...}}`, is scanned only up to the end of
 * the object's metadata: the object ends at the line's last `}` but one.
 *
 * Limits, none of which an API server's output reaches: a body malformed
 * past the metadata throws a {@link JsonLinesError} from the first property
 * read instead of failing the stream; a metadata key written twice keys the
 * cache by its first value (JSON.parse keeps the last); a lazy object cannot
 * go through `structuredClone` or be frozen (copy it with `JSON.parse(
 * JSON.stringify(o))` first). Anything else the scanner does not expect
 * (other event types, non-string metadata fields) is parsed eagerly.
 */
import type { KubeList, KubeObject } from '../../protocol/events.js';
import { JsonLinesError, parseJsonLine } from '../../protocol/jsonlines.js';
import { type ScannedObject, scanList, scanWatchLine } from './json-scan.js';

/** The fields a cache keys and compares objects by. */
export interface CacheMeta {
  name?: string;
  namespace?: string;
  resourceVersion?: string;
}

const LAZY = Symbol('watchmark.lazyObject');
const DECODED: CacheMeta = Object.freeze({});
const utf8 = new TextDecoder();
/** Set by the first lazy object this process makes. */
let lazyObjectsMade = false;

/** A lazy object's state; also the Proxy's target, so `util.inspect` shows the decoded object. */
class LazyObject {
  value: KubeObject | undefined;
  /** Both are dropped once decoded (the metadata strings are slices of the text). */
  text: string;
  meta: CacheMeta;
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
        this.text = '';
        this.meta = DECODED;
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
  // Spares eager users a (missing) symbol lookup on every object.
  if (!lazyObjectsMade) return object.metadata;
  const lazy = (object as { [LAZY]?: LazyObject })[LAZY];
  if (!lazy) return object.metadata;
  return lazy.value ? lazy.value.metadata : lazy.meta;
}

/** Whether `object` is lazy and not yet decoded (for tests and metrics). */
export function isUndecoded(object: KubeObject): boolean {
  const lazy = (object as { [LAZY]?: LazyObject })[LAZY];
  return lazy !== undefined && lazy.value === undefined;
}

/**
 * The JSON text of a lazy object not yet decoded, else undefined: a
 * checkpoint writes it as it came, without decoding the object.
 */
export function undecodedText(object: KubeObject): string | undefined {
  if (!lazyObjectsMade) return undefined;
  const lazy = (object as { [LAZY]?: LazyObject })[LAZY];
  return lazy && lazy.value === undefined ? lazy.text : undefined;
}

/** A lazy object made of the bytes a scan located. */
function lazyObject(bytes: Uint8Array, scanned: ScannedObject, offset: number): KubeObject {
  const { start, end } = scanned;
  const text = utf8.decode(bytes.subarray(start, end));
  // ASCII text (by far the common case) maps byte offsets to string offsets one to one.
  const simple = !scanned.escaped && text.length === end - start;
  const field = (from: number, to: number) => {
    if (from < 0) return undefined;
    if (simple) return text.slice(from - start, to - start);
    return JSON.parse(utf8.decode(bytes.subarray(from - 1, to + 1))) as string;
  };
  const fields: CacheMeta = {
    name: field(scanned.name, scanned.nameEnd),
    namespace: field(scanned.namespace, scanned.namespaceEnd),
    resourceVersion: field(scanned.rv, scanned.rvEnd),
  };
  lazyObjectsMade = true;
  return new Proxy(new LazyObject(text, fields, offset + start), handler) as unknown as KubeObject;
}

/**
 * Decodes one watch-stream line (`{"type":...,"object":{...}}`): ADDED,
 * MODIFIED and DELETED objects lazily, anything else eagerly. A
 * `JsonLinesDecoder` line decoder: malformed lines throw a `JsonLinesError`.
 */
export function decodeWatchLineLazily(bytes: Uint8Array, offset: number): unknown {
  const event = scanWatchLine(bytes);
  if (!event) return parseJsonLine(utf8.decode(bytes), offset);
  return { type: event.type, object: lazyObject(bytes, event.object, offset) };
}

/**
 * Decodes a list answer with lazy items; falls back to `JSON.parse` (and its
 * SyntaxError) for anything unexpected.
 */
export function decodeListLazily(bytes: Uint8Array): KubeList {
  const members = scanList(bytes);
  if (!members) return JSON.parse(utf8.decode(bytes)) as KubeList;
  const list: Record<string, unknown> = {};
  for (const m of members) {
    if ('items' in m) list.items = m.items.map((item) => lazyObject(bytes, item, 0));
    else list[m.key] = JSON.parse(utf8.decode(bytes.subarray(m.start, m.end)));
  }
  return list as unknown as KubeList;
}
