/**
 * A byte scanner for the JSON that lazy decoding (lazy-decode.ts) keeps as
 * text: it finds where objects begin and end and where their namespace, name
 * and resourceVersion are, checking structure (strings terminated, brackets
 * balanced, objects well formed where it descends) without building values.
 * It answers undefined for anything it does not expect; the caller then
 * parses eagerly. Positions are byte offsets into the scanned input.
 */

/** One scanned object: its bytes [start, end), and its cache fields' contents [x, xEnd) (x -1: absent). */
export interface ScannedObject {
  start: number;
  end: number;
  name: number;
  nameEnd: number;
  namespace: number;
  namespaceEnd: number;
  rv: number;
  rvEnd: number;
  /** Whether one of the fields holds an escape (then decode it with JSON.parse). */
  escaped: boolean;
}

/** The event types whose objects are scanned; the rest are parsed eagerly. */
const LAZY_EVENT_TYPES = ['ADDED', 'MODIFIED', 'DELETED'] as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const utf8 = new TextDecoder();
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const KEY_METADATA = ascii('metadata');
const KEY_NAME = ascii('name');
const KEY_NAMESPACE = ascii('namespace');
const KEY_RESOURCE_VERSION = ascii('resourceVersion');
const KEY_TYPE = ascii('type');
const KEY_OBJECT = ascii('object');
const KEY_ITEMS = ascii('items');
const LAZY_TYPES = LAZY_EVENT_TYPES.map((t) => [ascii(t), t] as const);

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
/** Whether to stop once the metadata is read, and whether that happened. */
let stopEarly = false;
let found = false;
/** Whether the last {@link scanKubeObject} stopped at the end of the metadata. */
let stoppedEarly = false;
let metaSeen = false;
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
    if (found) return true;
    ws();
    const c = b[pos++];
    if (c === RBRACE) return true;
    if (c !== COMMA) return false;
  }
}

/**
 * A metadata member: the three fields a cache needs must be strings (anything
 * else: the scan fails and the object is parsed eagerly). The first occurrence
 * of each counts; encoders of API servers never write a key twice.
 */
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
  if (field === 'name' && meta.name < 0) [meta.name, meta.nameEnd] = [strStart, strEnd];
  else if (field === 'namespace' && meta.namespace < 0)
    [meta.namespace, meta.namespaceEnd] = [strStart, strEnd];
  else if (field === 'rv' && meta.rv < 0) [meta.rv, meta.rvEnd] = [strStart, strEnd];
  if (strEscaped) meta.escaped = true;
  if (stopEarly && meta.name >= 0 && meta.namespace >= 0 && meta.rv >= 0) found = true;
  return true;
}

/** An object member: the first `metadata` is scanned field by field, the rest skipped. */
function objectMember(): boolean {
  if (!metaSeen && lastStringIs(KEY_METADATA) && b[pos] === LBRACE) {
    metaSeen = true;
    if (!scanObject(metadataMember)) return false;
    if (stopEarly) found = true;
    return true;
  }
  return skipValue();
}

/**
 * Scans one object at `pos`, filling `meta`. With `stopEarly`, it stops
 * (`found`) once the metadata fields are read, leaving the rest unscanned.
 */
function scanKubeObject(early: boolean): boolean {
  meta.name = meta.namespace = meta.rv = -1;
  meta.escaped = false;
  metaSeen = false;
  stopEarly = early;
  found = false;
  try {
    const ok = scanObject(objectMember);
    stoppedEarly = found;
    return ok;
  } finally {
    stopEarly = false;
    found = false;
  }
}

/** The object whose bytes [start, pos) were just scanned. */
function scanned(start: number): ScannedObject {
  return { start, end: pos, ...meta };
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

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** `{"type":"<TYPE>","object":`: how kube-apiserver (and watchmark) begin each event. */
const FAST_PREFIXES = LAZY_TYPES.map(([, type]) => [ascii(`{"type":"${type}","object":`), type] as const);

/**
 * The common case, in a fraction of the time: an envelope exactly as API
 * servers write it (`type`, then `object`, then nothing), so the object ends
 * at the line's last `}` but one, and the scan stops once its metadata is read.
 */
function fastWatchLine(): { type: string; object: ScannedObject } | undefined {
  const prefix = FAST_PREFIXES.find(([p]) => {
    if (end < p.length) return false;
    for (let i = 0; i < p.length; i++) if (b[i] !== p[i]) return false;
    return true;
  });
  if (!prefix) return undefined;
  const start = prefix[0].length;
  let close = end - 1;
  while (close > start && isSpace(b[close])) close--;
  if (b[close] !== RBRACE) return undefined;
  close--;
  while (close > start && isSpace(b[close])) close--;
  if (b[close] !== RBRACE || b[start] !== LBRACE) return undefined;
  pos = start;
  if (!scanKubeObject(true)) return undefined;
  // Without metadata the scan reached the object's end: it must be the one the envelope implies.
  if (!stoppedEarly && pos !== close + 1) return undefined;
  pos = close + 1;
  return { type: prefix[1], object: scanned(start) };
}

/**
 * Scans one watch-stream line (`{"type":...,"object":{...}}`). Undefined
 * when its type is not a lazy one, or anything is unexpected.
 */
export function scanWatchLine(bytes: Uint8Array): { type: string; object: ScannedObject } | undefined {
  reset(bytes);
  try {
    const fast = fastWatchLine();
    if (fast) return fast;
    pos = 0;
    let type: string | undefined;
    let object: ScannedObject | undefined;
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
        if (!scanKubeObject(false)) return false;
        object = scanned(start);
        return true;
      }
      return skipValue();
    };
    if (!scanObject(envelopeMember)) return undefined;
    ws();
    return pos === end && !eager && type && object ? { type, object } : undefined;
  } finally {
    release();
  }
}

/** A list's members in order: `items` scanned object by object, any other member as the bytes of its value. */
export type ScannedListMember =
  | { key: 'items'; items: ScannedObject[] }
  | { key: string; start: number; end: number };

/** Scans a list answer (`{"metadata":{...},"items":[{...},...]}`); undefined when anything is unexpected. */
export function scanList(bytes: Uint8Array): ScannedListMember[] | undefined {
  reset(bytes);
  try {
    const members: ScannedListMember[] = [];
    const listMember = (): boolean => {
      if (lastStringIs(KEY_ITEMS) && b[pos] === LBRACKET) {
        const items: ScannedObject[] = [];
        members.push({ key: 'items', items });
        pos++;
        ws();
        if (b[pos] === RBRACKET) {
          pos++;
          return true;
        }
        for (;;) {
          ws();
          const start = pos;
          if (!scanKubeObject(false)) return false;
          items.push(scanned(start));
          ws();
          const c = b[pos++];
          if (c === RBRACKET) return true;
          if (c !== COMMA) return false;
        }
      }
      const key = strEscaped ? decodeLastString() : utf8.decode(b.subarray(strStart, strEnd));
      const start = pos;
      if (!skipValue()) return false;
      members.push({ key, start, end: pos });
      return true;
    };
    if (!scanObject(listMember)) return undefined;
    ws();
    return pos === end ? members : undefined;
  } finally {
    release();
  }
}
