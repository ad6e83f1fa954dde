/**
 * client-node's `Watch`: one watch request, each event given to `callback`
 * as `(type, object, event)`, and `done(err)` called once when the stream
 * ends (`null`) or fails, after which nothing more arrives. `watch()`
 * resolves to an AbortController that ends the request.
 *
 * Underneath, watchmark's transport and watch decoder: keep-alive
 * connections, backpressure, credentials read through the KubeConfig on
 * every request. What differs from client-node:
 * - no deadline on a healthy stream (client-node 2.0.0 aborted every watch
 *   after 30 s); given `timeoutSeconds`, a stream silent 5 s past it is
 *   ended with an error, as a connection that died without a word would
 *   otherwise wait forever;
 * - a refused request's error is watchmark's `StatusError` (the server's
 *   Status, `code`), with client-node's `statusCode` too;
 * - a callback that throws is counted ({@link Watch.callbackFailures}) and the
 *   stream goes on (client-node drops the error too).
 */
import { Transport, type TransportOptions } from '../client/http/transport.js';
import { ResponseWatchStream } from '../client/watch/listwatch.js';
import type { WatchEvent } from '../protocol/events.js';
import { connectionFromKubeConfig, type KubeConfigLike } from './kubeconfig.js';

/** Options of the drop-in's Watch beyond client-node's (the transport's settings). */
export interface WatchOptions {
  transport?: TransportOptions;
}

/** client-node's `Watch` callback. */
// biome-ignore lint/suspicious/noExplicitAny: client-node types the object `any`; users' callbacks are written against that.
export type WatchCallback = (phase: string, apiObj: any, watchObj?: any) => void;
/** client-node's `Watch` done callback: `null` for a clean end, else the failure. */
// biome-ignore lint/suspicious/noExplicitAny: as client-node's.
export type DoneCallback = (err: any) => void;

/** Extra time past `timeoutSeconds` before a silent stream is taken for dead. */
const IDLE_GRACE_MS = 5_000;

/** See the file comment. */
export class Watch {
  /** As client-node's (kept for code that compares against it). */
  static SERVER_SIDE_CLOSE: object = { error: 'Connection closed on server' };
  /** The KubeConfig, read through its public methods (ListWatch reads it here too). */
  readonly config: KubeConfigLike;
  /** Callbacks that threw so far. */
  callbackFailures = 0;
  private readonly options: WatchOptions;
  private transport: Promise<Transport> | undefined;

  constructor(config: KubeConfigLike, options: WatchOptions = {}) {
    this.config = config;
    this.options = options;
  }

  /**
   * Watches `path` (a collection path, with `watch=true` added) with these
   * query parameters; see the file comment.
   */
  async watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: WatchCallback,
    done: DoneCallback,
  ): Promise<AbortController> {
    const controller = new AbortController();
    let ended = false;
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      controller.abort();
      done(err);
    };
    try {
      const transport = await this.transportFor();
      const url = new URL(path, 'http://path.invalid');
      const query: Record<string, string> = Object.fromEntries(url.searchParams);
      query.watch = 'true';
      for (const [k, v] of Object.entries(queryParams ?? {})) if (v !== undefined) query[k] = String(v);
      const res = await transport.stream({ path: url.pathname, query, signal: controller.signal });
      const stream = new ResponseWatchStream(res, () => {});
      // As client-node: the caller's abort() ends the watch with an AbortError.
      controller.signal.addEventListener(
        'abort',
        () => {
          stream.close();
          end(new DOMException('The user aborted a request.', 'AbortError'));
        },
        { once: true },
      );
      const seconds = Number(queryParams?.timeoutSeconds);
      const idleMs = seconds > 0 ? seconds * 1000 + IDLE_GRACE_MS : undefined;
      void this.read(stream, callback, idleMs).then(
        () => end(null),
        (err: unknown) => end(err),
      );
    } catch (err) {
      end(withStatusCode(err));
    }
    return controller;
  }

  /** Hands every event to `callback` until the stream ends; rejects when it breaks or goes silent. */
  private async read(stream: ResponseWatchStream, callback: WatchCallback, idleMs?: number): Promise<void> {
    for (;;) {
      const event = await nextWithin(stream, idleMs);
      if (!event) return;
      try {
        callback(event.type, event.object, event);
      } catch {
        // As client-node, a callback's failure does not end the watch; it is counted.
        this.callbackFailures++;
      }
    }
  }

  private transportFor(): Promise<Transport> {
    this.transport ??= connectionFromKubeConfig(this.config).then(
      (c) => new Transport(c, { qps: 0, ...this.options.transport }),
    );
    // A failed reading is not kept: the next watch reads the KubeConfig again.
    this.transport.catch(() => {
      this.transport = undefined;
    });
    return this.transport;
  }
}

/** The stream's next event, or a rejection when none arrives within `idleMs`. */
function nextWithin(stream: ResponseWatchStream, idleMs?: number): Promise<WatchEvent | undefined> {
  if (idleMs === undefined) return stream.next();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.close();
      reject(new Error(`watch stream silent for ${idleMs} ms`));
    }, idleMs);
    stream.next().then(
      (e) => {
        clearTimeout(timer);
        resolve(e);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** See list-watch.ts `withStatusCode`: client-node's name for the HTTP code, beside watchmark's. */
export function withStatusCode(err: unknown): unknown {
  if (
    err instanceof Error &&
    typeof (err as { code?: unknown }).code === 'number' &&
    !('statusCode' in err)
  ) {
    Object.defineProperty(err, 'statusCode', {
      value: (err as unknown as { code: number }).code,
      enumerable: false,
    });
  }
  return err;
}
