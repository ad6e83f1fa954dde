/**
 * An HTTP proxy on 127.0.0.1 that sits between a client and a plain-HTTP
 * watchmark server and misbehaves on demand, the way networks and load
 * balancers do: it answers chosen requests with 429 (and Retry-After) or 500,
 * resets connections at connect or cuts answers mid-body (even mid-line), and
 * pauses: it stops forwarding bytes in both directions without closing any
 * socket, which is what a dead TCP connection looks like to both ends. A
 * pause holds everything, new connections included; a stall holds only the
 * connections open at that moment (pooled keep-alive ones too), as when one
 * NAT entry or load-balancer flow dies while new connections work.
 *
 * It forwards to one upstream address, so a server restarted on the same
 * port is reached again; while the upstream is down, clients see resets.
 * {@link FaultProxy.retarget} moves it to another upstream, as a load
 * balancer failing over to another API server.
 */

import {
  Agent,
  type ClientRequest,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BodyShaper, type FaultAction, type ProxiedRequest, statusFor } from './fault-shaping.js';

export type { FaultAction, ProxiedRequest } from './fault-shaping.js';

/** Options of {@link FaultProxy.start}. */
export interface FaultProxyOptions {
  /** The upstream base URL (plain HTTP), e.g. `http://127.0.0.1:41234`. */
  target: string;
  /** Decides per request; default: pass everything. */
  decide?: (req: ProxiedRequest) => FaultAction;
}

/** Counters of what the proxy did. */
export interface FaultProxyStats {
  requests: number;
  status429: number;
  /** 410, 500, 503 and 504 answers. */
  status500: number;
  resets: number;
  cuts: number;
  errorEvents: number;
  /** Exchanges cut by {@link FaultProxy.cutAll}. */
  cutAll: number;
  upstreamErrors: number;
  pauses: number;
  /** Connections stalled by {@link FaultProxy.stall}. */
  stalled: number;
}

/** One request/answer pair in flight through the proxy. */
interface Exchange {
  socket: Socket;
  upstreamReq: ClientRequest | undefined;
  upstream: IncomingMessage | undefined;
  /** Forwarding steps held back while the proxy is paused or the connection stalled, in order. */
  held: Array<() => void>;
  done: boolean;
  /** Cuts both sides. */
  destroy(): void;
  /** Marks the exchange over after a complete answer. */
  finish(): void;
}

/** A fault-injecting HTTP proxy; see the file comment. Close it with {@link FaultProxy.close}. */
export class FaultProxy {
  readonly stats: FaultProxyStats = {
    requests: 0,
    status429: 0,
    status500: 0,
    resets: 0,
    cuts: 0,
    errorEvents: 0,
    cutAll: 0,
    upstreamErrors: 0,
    pauses: 0,
    stalled: 0,
  };
  /** The proxy's base URL; point the client's kubeconfig here. */
  url = '';
  decide: (req: ProxiedRequest) => FaultAction;
  private target: URL;
  private readonly server: Server;
  private readonly exchanges = new Set<Exchange>();
  private readonly agent = new Agent({ keepAlive: false });
  private paused = false;
  private pauseTimer: NodeJS.Timeout | undefined;
  /** Client connections open now. */
  private readonly sockets = new Set<Socket>();
  /** Stalled client connections. */
  private readonly stalledSockets = new Set<Socket>();
  private readonly stallTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(opts: FaultProxyOptions) {
    this.target = new URL(opts.target);
    this.decide = opts.decide ?? (() => ({ kind: 'pass' }));
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.stalledSockets.delete(socket);
      });
    });
    this.server.keepAliveTimeout = 5_000;
  }

  /** Starts a proxy to `opts.target` on a free port of 127.0.0.1. */
  static async start(opts: FaultProxyOptions): Promise<FaultProxy> {
    const proxy = new FaultProxy(opts);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => {
        proxy.server.off('error', reject);
        resolve();
      });
    });
    const { port } = proxy.server.address() as AddressInfo;
    proxy.url = `http://127.0.0.1:${port}`;
    return proxy;
  }

  /** Whether bytes are currently held back. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Requests (watches included) currently in flight. */
  get inFlight(): number {
    return this.exchanges.size;
  }

  /**
   * Stops forwarding bytes both ways (answers, new requests, and the news that
   * a client hung up) for `ms`, or until {@link resume} when `ms` is omitted.
   */
  pause(ms?: number): void {
    if (this.closed) return;
    this.stats.pauses++;
    this.paused = true;
    clearTimeout(this.pauseTimer);
    this.pauseTimer = ms === undefined ? undefined : setTimeout(() => this.resume(), ms);
  }

  /**
   * Stops forwarding bytes both ways on every connection open now, idle
   * keep-alive ones included, for `ms`; connections opened later work.
   * Returns how many connections stalled.
   */
  stall(ms: number): number {
    if (this.closed) return 0;
    const stalled = [...this.sockets].filter((s) => !this.stalledSockets.has(s));
    for (const socket of stalled) this.stalledSockets.add(socket);
    this.stats.stalled += stalled.length;
    const timer = setTimeout(() => {
      this.stallTimers.delete(timer);
      for (const socket of stalled) this.stalledSockets.delete(socket);
      for (const ex of [...this.exchanges]) this.flush(ex);
    }, ms);
    this.stallTimers.add(timer);
    return stalled.length;
  }

  /**
   * Sends requests from now on (held ones included) to `target`, as a load
   * balancer failing over does. Exchanges already forwarded stay with their
   * upstream until they end; {@link cutAll} ends them too.
   */
  retarget(target: string): void {
    this.target = new URL(target);
  }

  /** The upstream requests go to now. */
  get upstream(): string {
    return this.target.origin;
  }

  /** Forwards everything held back, in order, and carries on. */
  resume(): void {
    clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    if (!this.paused) return;
    this.paused = false;
    for (const ex of [...this.exchanges]) this.flush(ex);
  }

  /** Cuts every exchange in flight, as a dropped connection would. Returns how many. */
  cutAll(): number {
    const all = [...this.exchanges];
    for (const ex of all) ex.destroy();
    this.stats.cutAll += all.length;
    return all.length;
  }

  /** Cuts everything, stops listening and releases every socket. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.pauseTimer);
    for (const timer of this.stallTimers) clearTimeout(timer);
    this.stallTimers.clear();
    this.paused = false;
    for (const ex of [...this.exchanges]) ex.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    this.agent.destroy();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.stats.requests++;
    const url = new URL(req.url ?? '/', 'http://proxy');
    const watch = ['1', 'true'].includes(url.searchParams.get('watch') ?? '');
    const action = this.closed
      ? ({ kind: 'reset' } as const)
      : this.decide({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, watch });
    const ex = this.track(req.socket, res);
    switch (action.kind) {
      case 'reset':
        this.stats.resets++;
        ex.destroy();
        return;
      case 'status':
        this.answer(ex, req, res, action);
        return;
      default:
        this.relay(ex, req, res, new BodyShaper(action, watch));
    }
  }

  private track(socket: Socket, res: ServerResponse): Exchange {
    const ex: Exchange = {
      socket,
      upstreamReq: undefined,
      upstream: undefined,
      held: [],
      done: false,
      destroy: () => {
        if (ex.done) return;
        ex.finish();
        ex.upstreamReq?.destroy();
        ex.upstream?.destroy();
        socket.destroy();
      },
      finish: () => {
        ex.done = true;
        this.exchanges.delete(ex);
      },
    };
    this.exchanges.add(ex);
    // The client hung up: tell the upstream, but not while paused (no bytes flow).
    res.on('close', () => {
      if (!ex.done) this.forward(ex, () => ex.destroy());
    });
    return ex;
  }

  /** Answers with an error Status instead of forwarding. */
  private answer(
    ex: Exchange,
    req: IncomingMessage,
    res: ServerResponse,
    action: Extract<FaultAction, { kind: 'status' }>,
  ): void {
    if (action.code === 429) this.stats.status429++;
    else this.stats.status500++;
    const status = statusFor(action.code, action.retryAfterSeconds ?? 0);
    const body = Buffer.from(JSON.stringify(status));
    const headers: OutgoingHttpHeaders = {
      'content-type': 'application/json',
      'content-length': body.length,
    };
    if (status.details?.retryAfterSeconds !== undefined) {
      headers['retry-after'] = String(status.details.retryAfterSeconds);
    }
    // Drain the request first so the keep-alive connection stays usable.
    req.resume();
    this.forward(ex, () => {
      res.writeHead(action.code, headers);
      res.end(body, ex.finish);
    });
  }

  /** Forwards the request upstream and its answer back, shaped (cut, ERROR injected) as `shaper` says. */
  private relay(ex: Exchange, req: IncomingMessage, res: ServerResponse, shaper: BodyShaper): void {
    if (shaper.cuts) this.stats.cuts++;
    this.forward(ex, () => {
      const headers = { ...req.headers, host: this.target.host, connection: 'close' };
      const upstreamReq = httpRequest(
        new URL(req.url ?? '/', this.target),
        { method: req.method, headers, agent: this.agent },
        (up) => this.relayAnswer(ex, res, up, shaper),
      );
      ex.upstreamReq = upstreamReq;
      upstreamReq.on('error', () => {
        // The upstream is down or hung up: the client sees its connection reset.
        if (!ex.done) this.stats.upstreamErrors++;
        this.forward(ex, () => ex.destroy());
      });
      req.pipe(upstreamReq);
    });
  }

  private relayAnswer(ex: Exchange, res: ServerResponse, up: IncomingMessage, shaper: BodyShaper): void {
    ex.upstream = up;
    const headers: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(up.headers)) {
      if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
    }
    shaper.answered(up.statusCode ?? 502);
    const injectError = (head: Buffer) => {
      this.stats.errorEvents++;
      res.end(Buffer.concat([head, shaper.errorLine()]));
      // Over before the upstream goes, so its teardown cannot cut the answer just ended.
      ex.finish();
      up.destroy();
    };
    let draining = false;
    this.forward(ex, () => {
      if (ex.done) return;
      res.writeHead(up.statusCode ?? 502, headers);
      // Pass the headers on now, as the server sent them: a watch may have no event for a while.
      res.flushHeaders();
      if (shaper.errorAtHeaders()) injectError(Buffer.alloc(0));
    });
    up.on('data', (chunk: Buffer) => {
      this.forward(ex, () => {
        if (ex.done || res.writableEnded) return;
        const shaped = shaper.shape(chunk);
        if (shaped?.next === 'error') {
          injectError(shaped.forward);
          return;
        }
        if (shaped?.next === 'cut') {
          res.write(shaped.forward);
          // Let the partial bytes reach the socket before cutting it.
          setImmediate(() => ex.destroy());
          return;
        }
        if (!res.write(chunk) && !draining) {
          draining = true;
          up.pause();
          res.once('drain', () => {
            draining = false;
            up.resume();
          });
        }
      });
    });
    up.on('end', () =>
      this.forward(ex, () => {
        if (ex.done || res.writableEnded || shaper.isCut) return;
        res.end(ex.finish);
      }),
    );
    up.on('error', () => this.forward(ex, () => ex.destroy()));
  }

  /** Runs a forwarding step now, or after the pause, keeping each exchange's steps in order. */
  private forward(ex: Exchange, step: () => void): void {
    if (this.isHeld(ex) || ex.held.length > 0) {
      ex.held.push(step);
      return;
    }
    step();
  }

  private flush(ex: Exchange): void {
    while (!this.isHeld(ex) && ex.held.length > 0) ex.held.shift()!();
  }

  private isHeld(ex: Exchange): boolean {
    return this.paused || this.stalledSockets.has(ex.socket);
  }
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
]);
