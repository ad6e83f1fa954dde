import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import { type Clock, systemClock } from '../../protocol/clock.js';
import { StatusError } from '../../protocol/status.js';
import type { ClusterConnection } from '../config/index.js';
import { TokenBucket } from './rate-limiter.js';
import { readAll, statusFromAnswer, TransportError } from './transport-answer.js';
import { dropIdleSockets, newAgent, StaleConnectionError, send } from './transport-connection.js';

export { statusFromAnswer, TransportError } from './transport-answer.js';

/** One HTTP request to the API server. */
export interface ApiRequest {
  method?: string;
  /** Path below the server URL, e.g. `/api/v1/namespaces/demo/pods`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** An object is sent as JSON; a Buffer or string as is. */
  body?: unknown;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  /**
   * A discovery request: spaced by the discovery bucket (kubectl's 50 qps,
   * burst 300), not the client's, as kubectl gives its discovery client its
   * own limits (cli-runtime genericclioptions/config_flags.go,
   * `ToDiscoveryClient`): legacy discovery asks once per group version.
   */
  discovery?: boolean;
  /**
   * For {@link Transport.request}: give up (TransportError ETIMEDOUT) when the
   * whole answer has not arrived in this many ms; overrides the transport's
   * `requestTimeoutMs`; 0 waits forever. Streams have no such deadline.
   */
  timeoutMs?: number;
}

/** Options of {@link Transport}. */
export interface TransportOptions {
  /** Client-side rate limit: requests per second (client-go default 5; <= 0 disables). */
  qps?: number;
  /** Burst above qps (client-go default 10). */
  burst?: number;
  /** User-Agent header. */
  userAgent?: string;
  /**
   * Deadline of a whole non-streaming request, rate-limiter wait included
   * (default 60 s, kube-apiserver's own limit for such requests; 0 = none).
   * A request sent on a dead connection is otherwise never answered.
   */
  requestTimeoutMs?: number;
  clock?: Clock;
}

/** Connection failures that mean the server went away (died, restarted): worth trying another one. */
const SERVER_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * HTTP to one API server over node:http(s) with keep-alive, client-side rate
 * limiting, credentials from the kubeconfig (refreshed after a 401), and an
 * AbortSignal on every request. node:https is used rather than undici: it is
 * already loaded by Node (no import cost) and gives socket-level
 * backpressure on streams, which is all a watcher needs.
 *
 * This file holds the requests: rate limit, deadline, failover between
 * servers, and building each request; transport-connection.ts holds the
 * exchange and the connection pool it runs on, transport-answer.ts reading
 * answers and the errors they end in.
 */
export class Transport {
  readonly connection: ClusterConnection;
  private readonly limiter: TokenBucket;
  private readonly discoveryLimiter: TokenBucket;
  private readonly userAgent: string;
  private readonly requestTimeoutMs: number;
  private readonly clock: Clock;
  private agent: HttpAgent | undefined;
  private agentCert: string | undefined;
  /** Every API server of the cluster, `connection.server` first. */
  private readonly servers: URL[];
  /** Index of the server requests go to; moves on when that one goes away. */
  private current = 0;
  /** Requests sent again on a new connection after their reused keep-alive one was found closed. */
  retriedStale = 0;

  constructor(connection: ClusterConnection, opts: TransportOptions = {}) {
    this.connection = connection;
    const urls = [connection.server, ...(connection.servers ?? [])];
    this.servers = [...new Set(urls)].map((u) => new URL(u));
    this.clock = opts.clock ?? systemClock;
    this.limiter = new TokenBucket(opts.qps ?? 5, opts.burst ?? 10, this.clock);
    // Limiting turned off (qps <= 0) turns it off for discovery too.
    this.discoveryLimiter = new TokenBucket((opts.qps ?? 5) > 0 ? 50 : 0, 300, this.clock);
    this.userAgent = opts.userAgent ?? 'watchmark/0.1.0';
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  }

  /**
   * Sends a request and returns the whole answer; non-2xx answers throw
   * {@link StatusError}; no whole answer within the request timeout throws
   * a TransportError with code ETIMEDOUT.
   */
  async request(
    req: ApiRequest,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
    const ms = req.timeoutMs ?? this.requestTimeoutMs;
    if (!(ms > 0)) return this.requestOnce(req);
    const deadline = new AbortController();
    const outer = req.signal;
    const onAbort = () => deadline.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    const timer = this.clock.setTimeout(() => {
      const what = `${req.method ?? 'GET'} ${this.server}${req.path}`;
      deadline.abort(new TransportError(`${what}: no answer within ${formatMs(ms)}`, 'ETIMEDOUT'));
    }, ms);
    try {
      return await this.requestOnce({ ...req, signal: deadline.signal });
    } finally {
      timer.cancel();
      outer?.removeEventListener('abort', onAbort);
    }
  }

  private async requestOnce(
    req: ApiRequest,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
    const res = await this.open(req);
    const body = await readAll(res, req.signal);
    if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) {
      throw this.answerError(res, body);
    }
    return { status: res.statusCode, headers: res.headers, body };
  }

  /** Sends a request and parses its JSON answer. */
  async json<T>(req: ApiRequest): Promise<T> {
    const { body } = await this.request(req);
    return JSON.parse(body.toString('utf8')) as T;
  }

  /**
   * Opens a streaming answer (a watch). The caller reads it (pausing reads
   * pauses the socket) and must destroy it when done. Non-200 throws.
   */
  async stream(req: ApiRequest): Promise<IncomingMessage> {
    const res = await this.open(req);
    if (res.statusCode !== 200) {
      const body = await readAll(res, req.signal);
      throw this.answerError(res, body);
    }
    return res;
  }

  /** The URL of the API server requests go to now (changes on failover). */
  get server(): string {
    return this.servers[this.current].href.replace(/\/$/, '');
  }

  /** Closes pooled connections. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private answerError(res: IncomingMessage, body: Buffer): StatusError {
    const code = res.statusCode ?? 0;
    const status = statusFromAnswer(code, body);
    const retryAfter = Number(res.headers['retry-after']);
    if (Number.isFinite(retryAfter) && retryAfter > 0) {
      status.details = {
        ...status.details,
        retryAfterSeconds: status.details?.retryAfterSeconds ?? retryAfter,
      };
    }
    if (code === 401) this.connection.credentials.invalidate();
    return new StatusError(status);
  }

  /**
   * Sends a request to the current server. With several servers (one API
   * over one etcd), a server that is gone moves every later request to the
   * next one; a refused connection, where nothing was sent, is retried there
   * at once, each server tried once. A watcher cut by a dying server comes
   * back through here with its last resourceVersion and resumes on another
   * server without a relist: they all serve the same revisions.
   */
  private async open(req: ApiRequest): Promise<IncomingMessage> {
    await (req.discovery ? this.discoveryLimiter : this.limiter).take(req.signal);
    for (let tried = 1; ; tried++) {
      const at = this.current;
      try {
        return await this.openOn(this.servers[at], req);
      } catch (err) {
        if (!(err instanceof TransportError) || !SERVER_GONE.has(err.code ?? '') || this.servers.length < 2) {
          throw err;
        }
        // Another request may have moved on already: move only from the server that failed.
        if (this.current === at) this.current = (at + 1) % this.servers.length;
        if (err.code !== 'ECONNREFUSED' || tried >= this.servers.length) throw err;
      }
    }
  }

  private async openOn(base: URL, req: ApiRequest): Promise<IncomingMessage> {
    const url = new URL(req.path, base);
    // Keep any path prefix of the server URL (e.g. behind a proxy at /k8s/clusters/c1).
    if (base.pathname !== '/' && !req.path.startsWith(base.pathname)) {
      url.pathname = base.pathname.replace(/\/$/, '') + req.path;
    }
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      accept: req.accept ?? 'application/json',
    };
    let payload: Buffer | undefined;
    if (req.body !== undefined) {
      payload = Buffer.isBuffer(req.body)
        ? req.body
        : Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const authorization = await this.connection.credentials.authorization();
    if (authorization) headers.authorization = authorization;
    const agent = await this.agentFor(url);
    // The URL's parts, as node would take them from it (its conversion costs more than the rest of
    // building the request); no `signal`: send() ties the request to it (see there).
    const options: RequestOptions = {
      method: req.method ?? 'GET',
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers,
      agent,
    };
    if (url.username || url.password) {
      options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    }
    try {
      return await send(url, options, payload, req.signal);
    } catch (err) {
      // Go's transport: an idempotent request that failed on a reused keep-alive
      // connection before any answer byte (the server had just closed it) is
      // sent again at once on a new connection, once. Not a server failure.
      if (!(err instanceof StaleConnectionError)) throw err;
      this.retriedStale++;
      dropIdleSockets(agent);
      try {
        return await send(url, options, payload, req.signal);
      } catch (again) {
        throw again instanceof StaleConnectionError ? again.cause : again;
      }
    }
  }

  private async agentFor(url: URL): Promise<HttpAgent> {
    const c = this.connection;
    const execCert = await c.credentials.clientCertificate();
    const certPem = execCert?.certPem ?? c.clientCertPem;
    if (this.agent && this.agentCert === certPem) return this.agent;
    this.agent?.destroy();
    this.agentCert = certPem;
    this.agent = newAgent(url, c, certPem, execCert?.keyPem ?? c.clientKeyPem);
    return this.agent;
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
