/**
 * Plain `node:http` / `node:https` requests for the benchmark: no client
 * library between the bench and the server. The URL's scheme picks the module;
 * the agent must match it (an `https.Agent` for an `https:` URL).
 */
import {
  type Agent,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  request,
} from 'node:http';
import { request as httpsRequest } from 'node:https';

/** `http.request` or `https.request`, as `url`'s scheme asks. */
export function requestFor(
  url: URL,
): (url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void) => ClientRequest {
  return url.protocol === 'https:' ? httpsRequest : request;
}

/** A finished HTTP exchange. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/** One request with a JSON (or given) body; resolves with the status and text, rejects on socket errors or timeout. */
export function httpCall(
  agent: Agent,
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  timeoutMs = 30_000,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const url = new URL(path, baseUrl);
    const req = requestFor(url)(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like {@link httpCall} but rejects unless the status is one of `ok`. */
export async function httpExpect(
  agent: Agent,
  baseUrl: string,
  method: string,
  path: string,
  ok: number[],
  body?: unknown,
): Promise<HttpAnswer> {
  const answer = await httpCall(agent, baseUrl, method, path, body);
  if (!ok.includes(answer.status)) {
    throw new Error(`${method} ${path}: HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer;
}

/** Runs `work(i)` for i in [0, count) with at most `concurrency` at once; rejects on the first failure. */
export async function forEachBounded(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < count) {
      const i = next++;
      try {
        await work(i);
      } catch (err) {
        failed ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failed !== undefined) throw failed;
}

/** Calls `onLine` with each JSON line of a streamed answer (a watch), whole lines only, however the chunks fall. */
export function onJsonLines(res: IncomingMessage, onLine: (value: unknown) => void): void {
  let pending = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim() !== '') onLine(JSON.parse(line));
    }
  });
}
