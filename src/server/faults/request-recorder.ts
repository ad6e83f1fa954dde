/**
 * The request record (`ServerOptions.onRequest`): one {@link RequestRecord} per resource
 * request, made as its answer goes out. Only a server with `onRequest` set pays for it: the
 * response's `writeHead` or `end` is wrapped for that one request.
 */
import type { ServerResponse } from 'node:http';
import type { RequestAttributes, RequestRecord } from './request-attributes.js';

const METADATA = '"metadata":{';
const RESOURCE_VERSION = '"resourceVersion":"';

/**
 * The resourceVersion of an answer's own metadata (an object, a list, a Table), read from its
 * JSON text without parsing it: every answer the handlers write opens with `kind` and
 * `apiVersion`, then `metadata`, and no key inside ObjectMeta or ListMeta before
 * resourceVersion holds one of its own. Undefined when the text does not open that way
 * (a stored object whose metadata comes after other objects) rather than a guess.
 */
export function answeredResourceVersion(text: string): string | undefined {
  const meta = text.indexOf(METADATA);
  // Only the top level's metadata: no object may open before it.
  if (meta < 0 || text.lastIndexOf('{', meta) !== 0) return undefined;
  const at = text.indexOf(RESOURCE_VERSION, meta);
  if (at < 0) return undefined;
  const from = at + RESOURCE_VERSION.length;
  const end = text.indexOf('"', from);
  return end < 0 ? undefined : text.slice(from, end);
}

/**
 * Records `attrs` once `res` answers: a streaming answer (a watch) when its head is written,
 * with the status its stream starts with; any other when its body is handed over, with the
 * resourceVersion the body carries; with code 0 if the connection closes before either.
 */
export function recordAnswer(
  res: ServerResponse,
  attrs: RequestAttributes,
  streaming: boolean,
  onRequest: (record: RequestRecord) => void,
): void {
  let recorded = false;
  const emit = (code: number, resultResourceVersion?: string) => {
    if (recorded) return;
    recorded = true;
    const record: RequestRecord = { ...attrs, code };
    if (resultResourceVersion !== undefined) record.resultResourceVersion = resultResourceVersion;
    onRequest(record);
  };
  if (streaming) {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const out = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      emit(this.statusCode);
      return out;
    } as typeof res.writeHead;
  }
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (!recorded) {
      const body = args[0];
      const ok = this.statusCode < 300;
      emit(this.statusCode, ok && typeof body === 'string' ? answeredResourceVersion(body) : undefined);
    }
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.end;
  res.once('close', () => emit(res.headersSent ? res.statusCode : 0));
}
