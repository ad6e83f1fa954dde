import type { IncomingMessage, ServerResponse } from 'node:http';
import { failureStatus, type Status, StatusError } from '../../protocol/status.js';

/** The largest request body accepted, as kube-apiserver's 3 MiB limit. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole request body, refusing more than `limit` bytes with 413. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(tooLarge(limit));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) {
        failed = true;
        reject(err);
      }
    });
  });
}

function tooLarge(limit: number): StatusError {
  return StatusError.of('RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** Parses a JSON body; a malformed one is a 400 that says where. */
export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) throw StatusError.of('BadRequest', 'the request body is empty');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw StatusError.of('BadRequest', `the request body is not valid JSON: ${(err as Error).message}`);
  }
  if (!fewerOpenersThanDepth(body)) checkNestingDepth(value);
  return value;
}

/**
 * Whether `body` has at most {@link MAX_NESTING_DEPTH} `{` and `[` bytes: each nesting level
 * opens with one, so such a body cannot be nested too deeply and the walk over the decoded
 * value can be skipped (brackets inside strings only make the count err on the side of the
 * walk). Native searches, a handful per ordinary object.
 */
function fewerOpenersThanDepth(body: Buffer): boolean {
  let n = 0;
  for (const opener of [0x7b, 0x5b]) {
    for (let i = body.indexOf(opener); i !== -1; i = body.indexOf(opener, i + 1)) {
      if (++n > MAX_NESTING_DEPTH) return false;
    }
  }
  return true;
}

/**
 * The deepest nesting a decoded body (or a patched object) may have.
 * kube-apiserver inherits Go's encoding/json limit of 10000; ours is lower
 * because the recursive code after decoding (comparing, merging, patching)
 * overflows the JavaScript stack at about 2000 levels. Real objects need a few dozen.
 */
export const MAX_NESTING_DEPTH = 1000;

/**
 * Refuses a value nested deeper than {@link MAX_NESTING_DEPTH} with a 400.
 * Without it a body of `[[[[...` overflows the stack after decoding and
 * answers 500. Iterative, so the check itself cannot overflow.
 */
export function checkNestingDepth(value: unknown, max = MAX_NESTING_DEPTH): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) {
      throw StatusError.of('BadRequest', `the request body is nested too deeply: exceeded max depth ${max}`);
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
}

/** Another form a response's JSON answers are written in, and its Content-Type. */
export interface AnswerForm {
  convert(json: string): string | Buffer;
  contentType: string;
  /**
   * Only errors take this form: a custom resource's answers are JSON, but its errors are
   * negotiated with the built-in codecs (customresource_handler.go passes `Codecs` to
   * `ErrorNegotiated`), protobuf included.
   */
  errorsOnly?: boolean;
}

const answerForms = new WeakMap<ServerResponse, AnswerForm>();

/**
 * Has every answer written to `res` through {@link sendJson}, errors included, converted from
 * JSON (the YAML or protobuf an Accept header chose: handlers/yaml-answer.ts, protobuf-answer.ts).
 */
export function answerIn(res: ServerResponse, form: AnswerForm): void {
  answerForms.set(res, form);
}

/** Writes a JSON answer (a string is sent as is). Returns the bytes written. */
export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  contentType = 'application/json',
  isError = false,
): number {
  let text: string | Buffer = typeof body === 'string' ? body : JSON.stringify(body);
  const form = answerForms.get(res);
  if (form && (isError || !form.errorsOnly)) {
    text = form.convert(text);
    contentType = form.contentType;
  }
  const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
  if (!res.headersSent) {
    res.writeHead(code, {
      'Content-Type': contentType,
      'Content-Length': bytes,
      'Cache-Control': 'no-cache, private',
    });
  }
  res.end(text);
  return bytes;
}

/** Converts anything thrown by a handler into the Status to answer with. */
export function toStatus(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  return failureStatus('InternalError', `Internal error occurred: ${(err as Error)?.message ?? String(err)}`);
}

/** Writes a Status error answer (with Retry-After when the Status carries one). */
export function sendStatus(res: ServerResponse, status: Status): number {
  if (status.details?.retryAfterSeconds && !res.headersSent) {
    res.setHeader('Retry-After', String(status.details.retryAfterSeconds));
  }
  return sendJson(res, status.code, withoutEmptyDetails(status), undefined, true);
}

/**
 * meta/v1 StatusDetails writes its name, group, kind and uid with `omitempty`: an empty one (the
 * name of an object created without one, say) is left out rather than sent as "".
 */
function withoutEmptyDetails(status: Status): Status {
  const d = status.details;
  if (!d || (d.name !== '' && d.group !== '' && d.kind !== '' && d.uid !== '')) return status;
  const details = { ...d };
  for (const key of ['name', 'group', 'kind', 'uid'] as const) if (details[key] === '') delete details[key];
  return { ...status, details };
}
