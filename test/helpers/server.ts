import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { KubeClient } from '../../src/client/client.js';
import type { WatchEvent } from '../../src/protocol/events.js';
import { JsonLinesDecoder } from '../../src/protocol/jsonlines.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/index.js';
import { buildPod, type Pod } from '../../src/sim/index.js';

/** Starts a plain-HTTP, no-auth server with test-friendly timing; callers close it. */
export function startTestServer(opts: ServerOptions = {}): Promise<RunningServer> {
  return startServer({
    insecureHttp: true,
    insecureNoAuth: true,
    bookmarkInterval: 200,
    bookmarkLead: 100,
    tooLargeWait: 200,
    compactionInterval: 0,
    // No serviceaccount controller runs beside a test server, so no namespace has the `default`
    // account the ServiceAccount plugin requires of every pod: off, as envtest runs
    // kube-apiserver (a test of the plugin passes `disableAdmissionPlugins: []`).
    disableAdmissionPlugins: ['ServiceAccount'],
    ...opts,
  });
}

/** A parsed HTTP answer. */
export interface Answer<T = any> {
  status: number;
  headers: IncomingMessage['headers'];
  body: T;
  text: string;
  /** The body as it came (a protobuf answer is not text). */
  bytes: Buffer;
}

/** Options of {@link call}. */
export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  token?: string;
}

function transport(server: RunningServer) {
  return server.url.startsWith('https') ? httpsRequest : httpRequest;
}

/** One request to `server`; JSON bodies are parsed (text kept too). */
export function call<T = any>(
  server: RunningServer,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<Answer<T>> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    let payload: Buffer | undefined;
    if (opts.body !== undefined) {
      payload = Buffer.isBuffer(opts.body)
        ? opts.body
        : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
      headers['content-type'] ??= 'application/json';
      // Node sends a DELETE body without Content-Length (no chunking by default for DELETE).
      headers['content-length'] ??= String(payload.length);
    }
    const token = opts.token ?? server.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const req = transport(server)(new URL(path, server.url), { method, headers, ca: server.caPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text, bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** An open watch stream in a test. */
export interface TestWatch {
  /** HTTP status of the watch answer. */
  status: number;
  /** Every event received so far. */
  events: WatchEvent[];
  /** Waits for the next event not yet returned by `next` (rejects after `timeoutMs`). */
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** Waits until an event satisfies `pred`, returning it. */
  until(pred: (e: WatchEvent) => boolean, timeoutMs?: number): Promise<WatchEvent>;
  /** Resolves when the server ends the stream: `clean` (ended) or `aborted` (cut). */
  ended: Promise<'clean' | 'aborted'>;
  /** Closes the stream from the client side. */
  close(): void;
}

/** Opens a watch (a GET whose answer streams JSON lines). Non-200 answers reject with the Answer. */
export function watch(
  server: RunningServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<TestWatch> {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (server.token) h.authorization = `Bearer ${server.token}`;
    const req = transport(server)(
      new URL(path, server.url),
      { method: 'GET', headers: h, ca: server.caPem },
      (res) => {
        if (res.statusCode !== 200) {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            reject({ status: res.statusCode, body: JSON.parse(text), text, headers: res.headers });
          });
          return;
        }
        const decoder = new JsonLinesDecoder();
        const events: WatchEvent[] = [];
        let cursor = 0;
        let wake: (() => void) | undefined;
        let endState: 'clean' | 'aborted' | undefined;
        let settleEnded: (s: 'clean' | 'aborted') => void = () => {};
        const ended = new Promise<'clean' | 'aborted'>((r) => {
          settleEnded = r;
        });
        const finish = (s: 'clean' | 'aborted') => {
          if (endState) return;
          endState = s;
          settleEnded(s);
          wake?.();
        };
        res.on('data', (chunk: Buffer) => {
          for (const e of decoder.push(chunk)) events.push(e as WatchEvent);
          wake?.();
        });
        res.on('end', () => finish('clean'));
        res.on('aborted', () => finish('aborted'));
        res.on('error', () => finish('aborted'));
        res.on('close', () => finish(res.complete ? 'clean' : 'aborted'));
        const waitFor = async (pred: (e: WatchEvent) => boolean, timeoutMs: number): Promise<WatchEvent> => {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            while (cursor < events.length) {
              const e = events[cursor++];
              if (pred(e)) return e;
            }
            if (endState)
              throw new Error(
                `watch ended (${endState}) before the awaited event; got ${JSON.stringify(events.map((e) => e.type))}`,
              );
            const left = deadline - Date.now();
            if (left <= 0)
              throw new Error(
                `timed out waiting for a watch event; got ${JSON.stringify(events.map((e) => e.type))}`,
              );
            await new Promise<void>((r) => {
              const t = setTimeout(r, left);
              wake = () => {
                clearTimeout(t);
                r();
              };
            });
            wake = undefined;
          }
        };
        resolve({
          status: res.statusCode,
          events,
          next: (timeoutMs = 5000) => waitFor(() => true, timeoutMs),
          until: (pred, timeoutMs = 5000) => waitFor(pred, timeoutMs),
          ended,
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A minimal namespaced object body: a Pod of one nginx:1.27 container `c`. */
export function pod(
  name: string,
  extra: { labels?: Record<string, string>; nodeName?: string; namespace?: string } = {},
): Pod {
  return buildPod(name, extra);
}

/** Creates a namespace (ignoring AlreadyExists). */
export async function ensureNamespace(server: RunningServer, name: string): Promise<void> {
  const r = await call(server, 'POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
  });
  if (r.status !== 201 && r.status !== 409) throw new Error(`namespace ${name}: ${r.status} ${r.text}`);
}

/**
 * A test server with a `demo` namespace and a KubeClient loaded from the
 * kubeconfig it writes at `kubeconfig`; `cleanups` (see cleanupAfterEach)
 * closes both.
 */
export async function startTestServerWithClient(
  kubeconfig: string,
  cleanups: Array<() => Promise<void>>,
  opts: ServerOptions = {},
): Promise<{ server: RunningServer; kube: KubeClient }> {
  const server = await startTestServer({ kubeconfigOut: kubeconfig, ...opts });
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  cleanups.push(async () => {
    await kube.close();
    await server.close();
  });
  await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
  return { server, kube };
}
