import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import type { ServerStats } from '../stats/stats.js';

const MAX_UINT64 = 18446744073709551615n;

/**
 * Why Go's `strconv.ParseUint(value, 10, 64)` rejects `value`, or undefined
 * when it accepts it: decimal digits only (no sign, no spaces), at most 2^64-1.
 */
function parseUintError(value: string): string | undefined {
  if (!/^\d+$/.test(value)) return `strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`;
  if (BigInt(value) > MAX_UINT64)
    return `strconv.ParseUint: parsing ${JSON.stringify(value)}: value out of range`;
  return undefined;
}

/**
 * Where a resourceVersion is parsed, which decides how a bad one is answered:
 * - `storage` (watch, get): the storage versioner's error reaches the client as
 *   it is, a 500 without a reason (k8s.io/apiserver/pkg/storage/api_object_versioner.go
 *   `ParseResourceVersion` returns a storage InvalidError, not an API status;
 *   responsewriters/status.go `ErrorToAPIStatus` makes it a bare 500);
 * - `list`: a 400 BadRequest prefixed `invalid resource version: `
 *   (k8s.io/apiserver/pkg/storage/cacher/delegator.go, the list path's parse).
 */
export type ResourceVersionUse = 'storage' | 'list';

/**
 * Parses a resourceVersion query value as the server orders them: decimal
 * integers. `undefined` and "" mean unset; anything else Go's ParseUint
 * refuses is an error shaped by `use`.
 */
export function parseResourceVersion(
  value: string | undefined,
  use: ResourceVersionUse = 'storage',
): number | undefined {
  if (value === undefined || value === '') return undefined;
  const why = parseUintError(value);
  if (why !== undefined) {
    const message = `resourceVersion: Invalid value: ${JSON.stringify(value)}: ${why}`;
    if (use === 'list') throw StatusError.of('BadRequest', `invalid resource version: ${message}`);
    throw StatusError.plain(message);
  }
  return Number(value);
}

/** The 504 kube-apiserver answers for a resourceVersion newer than it has, after waiting. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return StatusError.of(
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
    504,
  );
}

/**
 * Waits, up to `waitMs`, for the watch cache to reach `revision`; a revision
 * it does not reach in time is a 504 {@link tooLargeResourceVersion} (counted).
 */
export async function awaitRevision(
  cacher: Pick<Cacher, 'latestRevision' | 'waitForRevision'>,
  stats: Pick<ServerStats, 'tooLargeSent'>,
  revision: number,
  waitMs: number,
): Promise<void> {
  if (revision <= cacher.latestRevision) return;
  if (await cacher.waitForRevision(revision, waitMs)) return;
  stats.tooLargeSent++;
  throw tooLargeResourceVersion(revision, cacher.latestRevision);
}

/** The 410 for a resourceVersion the history or the store no longer reaches. */
export function tooOldResourceVersion(requested: number, oldest: number): StatusError {
  return StatusError.of('Expired', `too old resource version: ${requested} (${oldest})`, undefined, 410);
}

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

/**
 * Go's `strconv.ParseInt(value, 10, 64)` as the parameter codec applies it to
 * `limit` and `timeoutSeconds`: a value it refuses is a 400 carrying its error
 * text (k8s.io/apimachinery/pkg/runtime/conversion.go `Convert_Slice_string_To_int64`,
 * turned into a BadRequest by endpoints/handlers/get.go).
 */
export function parseQueryInt64(value: string): number {
  const quoted = JSON.stringify(value);
  if (!/^[+-]?\d+$/.test(value)) {
    throw StatusError.of('BadRequest', `strconv.ParseInt: parsing ${quoted}: invalid syntax`);
  }
  const n = BigInt(value);
  if (n > 9223372036854775807n || n < -9223372036854775808n) {
    throw StatusError.of('BadRequest', `strconv.ParseInt: parsing ${quoted}: value out of range`);
  }
  return Number(n);
}

/** One ListOptions field error: `Forbidden` or `Unsupported value`. */
export interface ListOptionsError {
  field: string;
  reason: 'FieldValueForbidden' | 'FieldValueNotSupported';
  /** The cause's message, `Forbidden: ...` or `Unsupported value: ...`. */
  message: string;
}

export function forbidden(field: string, detail: string): ListOptionsError {
  return { field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` };
}

export function notSupported(field: string, value: string, supported: string[]): ListOptionsError {
  const values = supported.map((s) => JSON.stringify(s)).join(', ');
  return {
    field,
    reason: 'FieldValueNotSupported',
    message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${values}`,
  };
}

/**
 * The 422 for ListOptions that fail validation, all errors at once, as
 * endpoints/handlers/get.go answers `ValidateListOptions`
 * (k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/validation.go).
 */
export function invalidListOptions(errors: ListOptionsError[]): StatusError {
  const texts = errors.map((e) => `${e.field}: ${e.message}`);
  const joined = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return StatusError.of('Invalid', `ListOptions.meta.k8s.io "" is invalid: ${joined}`, {
    kind: 'ListOptions',
    group: 'meta.k8s.io',
    causes: errors.map((e) => ({ reason: e.reason, message: e.message, field: e.field })),
  });
}
