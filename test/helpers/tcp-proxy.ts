/**
 * A TCP proxy on 127.0.0.1 in front of a plain-HTTP server, for the faults
 * that happen below HTTP: a load balancer or a restarting server that resets
 * (RST) or closes (FIN) connections, and a keep-alive connection the server
 * closed just as the client reused it. It reads the request lines going up
 * (plain HTTP only) so tests can see which requests were sent, when, and on
 * which connection. In front of etcd (gRPC) it loses requests or answers,
 * as a member dying mid-call does.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A request line seen going to the server. */
export interface SeenRequest {
  method: string;
  path: string;
  /** `watch=1|true` in the query. */
  watch: boolean;
  /** The proxy connection it came on (1, 2, ...). */
  connection: number;
  /** Its index among that connection's requests (0 = first). */
  onConnection: number;
  /** performance.now() when its first bytes arrived. */
  at: number;
}

interface Link {
  id: number;
  client: Socket;
  upstream: Socket;
  requests: number;
}

/** See the file comment. Close it with {@link TcpProxy.close}. */
export class TcpProxy {
  readonly requests: SeenRequest[] = [];
  /** Connections accepted. */
  connections = 0;
  /**
   * When set, a request arriving on a connection that already carried one is
   * answered by a reset before it reaches the server: a keep-alive socket
   * that the server had closed at the moment the client reused it.
   */
  resetReusedConnections = false;
  /**
   * Bytes to let fall on the floor while set: `'up'` (requests never reach the
   * server) or `'down'` (the server acts on them, its answers never arrive).
   * Works below any protocol, gRPC included; usually followed by resetAll().
   */
  swallow: 'up' | 'down' | undefined;
  /** Bytes swallowed so far. */
  swallowed = 0;
  /**
   * When set, the first request chunk going up that contains these bytes
   * turns on `swallow = 'down'`: everything before it is answered, that
   * request's answer and all after it are lost.
   */
  loseAnswersFrom: Buffer | undefined;
  private readonly links = new Set<Link>();
  private readonly listeners = new Set<() => void>();
  private server!: Server;
  private port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  /** Starts a proxy to `target` (`http://host:port`). */
  static async start(target: string): Promise<TcpProxy> {
    const url = new URL(target);
    const proxy = new TcpProxy({ host: url.hostname, port: Number(url.port) });
    proxy.server = createServer((client) => proxy.accept(client));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as { port: number }).port;
    return proxy;
  }

  /** The proxy's URL. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Open connections. */
  get open(): number {
    return this.links.size;
  }

  /** Resets (RST) every open connection, both sides. Resolves with the number cut. */
  resetAll(): number {
    const n = this.links.size;
    for (const link of [...this.links]) this.cut(link, 'reset');
    return n;
  }

  /** Closes (FIN) every open connection, both sides, as a server or balancer shutting down does. */
  endAll(): number {
    const n = this.links.size;
    for (const link of [...this.links]) this.cut(link, 'end');
    return n;
  }

  /** Resolves once `pred` holds, checked on every request seen; rejects after `timeoutMs`. */
  waitFor(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!pred()) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; saw ${this.describe()}`));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  /** The requests seen, one per line, for failure messages. */
  describe(): string {
    return this.requests.map((r) => `#${r.connection}.${r.onConnection} ${r.method} ${r.path}`).join('; ');
  }

  async close(): Promise<void> {
    for (const link of [...this.links]) this.cut(link, 'reset');
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = createConnection(this.target);
    const link: Link = { id: ++this.connections, client, upstream, requests: 0 };
    this.links.add(link);
    const drop = () => this.cut(link, 'reset');
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    upstream.on('data', (chunk: Buffer) => {
      if (this.swallow === 'down') this.swallowed += chunk.length;
      else client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => {
      if (this.swallow === 'up') {
        this.swallowed += chunk.length;
        return;
      }
      if (this.loseAnswersFrom && chunk.includes(this.loseAnswersFrom)) {
        this.loseAnswersFrom = undefined;
        this.swallow = 'down';
      }
      const requests = parseRequestLines(chunk);
      if (requests.length > 0 && link.requests > 0 && this.resetReusedConnections) {
        this.cut(link, 'reset');
        return;
      }
      for (const r of requests) {
        this.requests.push({
          ...r,
          connection: link.id,
          onConnection: link.requests++,
          at: performance.now(),
        });
      }
      upstream.write(chunk);
      for (const l of [...this.listeners]) l();
    });
  }

  private cut(link: Link, how: 'reset' | 'end'): void {
    if (!this.links.delete(link)) return;
    for (const socket of [link.client, link.upstream]) {
      if (how === 'reset' && !socket.destroyed) socket.resetAndDestroy();
      else socket.end();
    }
  }
}

/** Request lines at the start of HTTP/1.1 requests in a chunk (bodies of our GETs are empty). */
function parseRequestLines(chunk: Buffer): Array<Pick<SeenRequest, 'method' | 'path' | 'watch'>> {
  const found: Array<Pick<SeenRequest, 'method' | 'path' | 'watch'>> = [];
  for (const m of chunk.toString('latin1').matchAll(/(?:^|\r\n\r\n)([A-Z]+) (\S+) HTTP\/1\.1\r\n/g)) {
    const query = new URL(m[2], 'http://x').searchParams;
    found.push({ method: m[1], path: m[2], watch: ['1', 'true'].includes(query.get('watch') ?? '') });
  }
  return found;
}
