import { StatusError } from '../../protocol/status.js';

/** A continue token: the list's revision and the key (relative to the list prefix) to resume at. */
export interface ContinueToken {
  rv: number;
  start: string;
}

/**
 * Encodes a continue token the way kube-apiserver shapes it: unpadded
 * base64url JSON whose `start` is the key to resume at, below the list's
 * prefix, with a leading slash (k8s.io/apiserver/pkg/storage/continue.go `EncodeContinue`).
 */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: `/${token.start}` }),
  ).toString('base64url');
}

const RAW_URL_BASE64 = /^[A-Za-z0-9_-]*$/;

/** Go's `base64.RawURLEncoding.DecodeString` error for `value`, or undefined. */
function base64Error(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    if (!RAW_URL_BASE64.test(value[i])) return `illegal base64 data at input byte ${i}`;
  }
  // A lone trailing character cannot hold a byte.
  if (value.length % 4 === 1) return `illegal base64 data at input byte ${value.length - 1}`;
  return undefined;
}

/** How Go's encoding/json names a JSON value's type in an unmarshal error. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Go's `strconv.Quote` of one byte read as a rune, without the quotes (json's `quoteChar`). */
function goQuoteByte(b: number): string {
  const named: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
  };
  if (b === 0x27) return "\\'";
  if (b === 0x22) return '"';
  if (b === 0x5c) return '\\\\';
  if (named[b]) return named[b];
  if (b < 0x20 || b === 0x7f) return `\\x${b.toString(16).padStart(2, '0')}`;
  if (b >= 0x80 && b < 0xa0) return `\\u${b.toString(16).padStart(4, '0')}`;
  return String.fromCharCode(b);
}

/** A close reading of Go's encoding/json syntax error for bytes JSON.parse refused. */
function jsonSyntaxError(bytes: Buffer): string {
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)
  )
    i++;
  if (i === bytes.length) return 'unexpected end of JSON input';
  const first = String.fromCharCode(bytes[i]);
  if (!'{["-0123456789tfn'.includes(first)) {
    return `invalid character '${goQuoteByte(bytes[i])}' looking for beginning of value`;
  }
  return 'unexpected end of JSON input';
}

/** Go's `path.Clean` of an absolute path. */
function cleanPath(key: string): string {
  const out: string[] = [];
  for (const part of key.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/**
 * Decodes a continue token as k8s.io/apiserver/pkg/storage/continue.go
 * `DecodeContinue` does; a malformed one is the 400 the etcd3 store answers
 * (`invalid continue token: continue key is not valid: ...`).
 */
export function decodeContinue(value: string): ContinueToken {
  const bad = (why: string) =>
    StatusError.of('BadRequest', `invalid continue token: continue key is not valid: ${why}`);
  const b64 = base64Error(value);
  if (b64 !== undefined) throw bad(b64);
  const bytes = Buffer.from(value, 'base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw bad(jsonSyntaxError(bytes));
  }
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    throw bad(`json: cannot unmarshal ${goJsonType(parsed)} into Go value of type storage.continueToken`);
  }
  const t = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  const fieldType = (field: string, v: unknown, goType: string) =>
    bad(
      `json: cannot unmarshal ${goJsonType(v)} into Go struct field continueToken.${field} of type ${goType}`,
    );
  if (t.v !== undefined && t.v !== null && typeof t.v !== 'string') throw fieldType('v', t.v, 'string');
  if (t.rv !== undefined && t.rv !== null && (typeof t.rv !== 'number' || !Number.isInteger(t.rv)))
    throw fieldType('rv', t.rv, 'int64');
  if (t.start !== undefined && t.start !== null && typeof t.start !== 'string')
    throw fieldType('start', t.start, 'string');
  const version = (t.v as string | undefined) ?? '';
  if (version !== 'meta.k8s.io/v1') throw bad(`server does not recognize this encoded version ${version}`);
  const rv = (t.rv as number | undefined) ?? 0;
  if (rv === 0) throw bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  const start = (t.start as string | undefined) ?? '';
  if (start === '') throw bad('encoded start key empty (version meta.k8s.io/v1)');
  // path.Clean keeps the start key under the list's prefix.
  const key = start.startsWith('/') ? start : `/${start}`;
  if (cleanPath(key) !== key) throw bad(start);
  return { rv, start: key.slice(1) };
}
