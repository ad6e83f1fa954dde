/**
 * client-node's `ListWatch` (what `makeInformer` returns), kept current by a
 * watchmark {@link Watcher} instead of client-node's list-then-watch loop.
 *
 * What the Watcher brings: bookmarks asked for, a watch that ends resumed
 * from the last resourceVersion without a list, a relist only on 410 with
 * client-go's resourceVersion rules, streaming lists where the server has
 * them, a jittered backoff that never gives up, and an idle timeout against
 * connections that died silently. What stays client-node's: the cache and
 * its callbacks (cache.ts, callbacks.ts), `list()`/`get()`, and `stop()`
 * ending every request.
 *
 * The differences (docs/from-client-node.md has the table):
 * - a failure calls the `error` callbacks and the informer goes on (client-node
 *   stops); a 410 is no error in either;
 * - `start()` while running is harmless: no second watch, it only waits for
 *   the first sync like the first call;
 * - `connect` is called on every (re)watch, not only after an error;
 * - callbacks that throw are reported to `error`, never stop anything;
 * - `listFn` is never called: the informer lists `path` itself (with the
 *   selectors, paginated or streamed), as it must to follow the resourceVersion rules.
 */
import { Transport, type TransportOptions } from '../client/http/transport.js';
import { DeferredListWatch } from '../client/watch/deferred-listwatch.js';
import { HttpListWatch } from '../client/watch/listwatch.js';
import {
  type Logger,
  Watcher,
  type WatcherEvent,
  type WatcherFailure,
  type WatcherOptions,
} from '../client/watch/watcher.js';
import type { KubeObject } from '../protocol/events.js';
import { type KubernetesObject, NamespacedCache } from './cache.js';
import { Callbacks, type ErrorCallback, type ObjectCallback } from './callbacks.js';
import { ConnectingSource } from './connect-source.js';
import { connectionFromKubeConfig, type KubeConfigLike } from './kubeconfig.js';
import { parseCollectionPath } from './path.js';
import { withStatusCode } from './watch.js';

/**
 * Options the drop-in takes beyond client-node's arguments (a last, optional
 * argument of `makeInformer` and `ListWatch`): the watcher's timing and the
 * transport's settings. Defaults are client-go's reflector's; the transport
 * has no client-side rate limit, as client-node has none.
 */
export type DropInOptions = Omit<WatcherOptions, 'signal' | 'initialState' | 'onError'> & {
  transport?: TransportOptions;
};

/** What `ListWatch` needs of its `watch` argument: client-node's `Watch` and ours both have it. */
export interface WatchLike {
  config: KubeConfigLike;
}

/** client-node's `ListPromise`: accepted, never called (see the file comment). */
export type ListPromise = () => Promise<unknown>;

/** One start()..stop() of the informer. */
interface Run {
  watcher: Watcher<KubeObject>;
  loop: Promise<void>;
  /** Resolves once the first list is applied, a failure was reported, or the run stopped. */
  started: Promise<void>;
  markStarted: () => void;
  transport: Transport | undefined;
  source: ConnectingSource;
  /** The last error reported to `error`, not to report the same one twice. */
  lastReported?: unknown;
}

/** See the file comment. */
export class ListWatch<T extends KubernetesObject = KubernetesObject> {
  private readonly cache = new NamespacedCache<T>();
  private readonly callbacks = new Callbacks<T>();
  private readonly path: string;
  private readonly config: KubeConfigLike;
  private readonly labelSelector: string | undefined;
  private readonly fieldSelector: string | undefined;
  private readonly options: DropInOptions;
  private resourceVersion = '';
  private run: Run | undefined;
  /** The list being received (between a watcher's `init` and `initDone`). */
  private pending: T[] | undefined;

  /**
   * client-node's constructor: `listFn` is accepted and never called;
   * `autoStart` (default true, as client-node) starts at once. The field
   * selector, which client-node's `makeInformer` drops, applies to the list
   * and every watch. `options` is watchmark's own (see {@link DropInOptions}).
   */
  constructor(
    path: string,
    watch: WatchLike,
    _listFn?: ListPromise,
    autoStart = true,
    labelSelector?: string,
    fieldSelector?: string,
    options: DropInOptions = {},
  ) {
    // A wrong path fails here, once, not on every retry.
    parseCollectionPath(path);
    this.path = path;
    this.config = watch.config;
    this.labelSelector = labelSelector;
    this.fieldSelector = fieldSelector;
    this.options = options;
    if (autoStart) void this.start();
  }

  /**
   * Starts listing and watching; resolves once the first list is in the
   * cache (its callbacks called), or a first failure was reported to
   * `error`. While running, another call starts nothing and resolves the
   * same way: an `error` callback that calls it, as client-node users'
   * restart code does, is harmless. After `stop()`, it resumes from the
   * last resourceVersion without a list when it can (as client-node does).
   */
  start(): Promise<void> {
    this.run ??= this.begin();
    return this.run.started;
  }

  /** Stops: every request ends, no callback is called after this resolves. The cache is kept. */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    run.watcher.stop();
    run.markStarted();
    await run.loop;
    run.transport?.close();
  }

  /** Adds a callback: `add`, `update`, `delete`, `change` (all three), `connect` or `error`. */
  on(verb: 'add' | 'update' | 'delete' | 'change', cb: ObjectCallback<T>): void;
  on(verb: 'error' | 'connect', cb: ErrorCallback): void;
  on(verb: string, cb: ObjectCallback<T> | ErrorCallback): void {
    this.callbacks.on(verb, cb as (arg?: unknown) => void);
  }

  /** Removes a callback added with {@link ListWatch.on}. */
  off(verb: 'add' | 'update' | 'delete' | 'change', cb: ObjectCallback<T>): void;
  off(verb: 'error' | 'connect', cb: ErrorCallback): void;
  off(verb: string, cb: ObjectCallback<T> | ErrorCallback): void {
    this.callbacks.off(verb, cb as (arg?: unknown) => void);
  }

  /** The cached object `name` in `namespace` (none: a cluster-scoped object). */
  get(name: string, namespace?: string): T | undefined {
    return this.cache.get(name, namespace);
  }

  /** The cached objects of `namespace`, or every cached object. */
  list(namespace?: string): ReadonlyArray<T> {
    return this.cache.list(namespace);
  }

  /** The resourceVersion of the last list, event or bookmark ("" before the first list). */
  latestResourceVersion(): string {
    return this.resourceVersion;
  }

  /** Callbacks that threw or rejected so far (each also reported to `error`). */
  get callbackFailures(): number {
    return this.callbacks.failures;
  }

  /** Counters of the running watcher (lists, watches, resumes, errors), if running. */
  get metrics(): Watcher['metrics'] | undefined {
    return this.run?.watcher.metrics;
  }

  private begin(): Run {
    const parsed = parseCollectionPath(this.path);
    const selectors = {
      labelSelector: this.labelSelector ?? parsed.labelSelector,
      fieldSelector: this.fieldSelector ?? parsed.fieldSelector,
    };
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const run = { markStarted, started, transport: undefined } as Run;
    // The KubeConfig is read when the first request goes out: a failure there is reported and retried.
    const source = new DeferredListWatch(this.path, async () => {
      const connection = await connectionFromKubeConfig(this.config);
      run.transport = new Transport(connection, { qps: 0, ...this.options.transport });
      return new HttpListWatch(run.transport, parsed.resource, selectors);
    });
    const rv = this.resourceVersion;
    const reporting = new ConnectingSource(
      source,
      () => this.callbacks.connect(),
      (err) => this.report(run, err),
    );
    run.source = reporting;
    run.watcher = new Watcher<KubeObject>(reporting, {
      initial: 'stream',
      ...this.options,
      // Resuming after stop(): the cache as it was, at its resourceVersion (no list unless 410).
      initialState: rv
        ? { resourceVersion: rv, objects: this.cache.list() as unknown as KubeObject[] }
        : undefined,
      logger: this.logger(run),
      onError: (err, failure) => this.failed(run, err, failure),
    });
    run.loop = run.watcher.consume((batch) => this.apply(run, batch));
    return run;
  }

  private failed(run: Run, err: unknown, failure: WatcherFailure | undefined): void {
    const next = failure?.next;
    // client-node relists on 410 without an error; so does the drop-in.
    if (next?.action === 'list' && (next.cause === 'expired' || next.cause === 'tooLarge')) return;
    // A refused streaming list is how the watcher learns the server has none: it lists at once, no error.
    if (next?.action === 'list' && !next.streaming && run.source.lastWatchStreaming) return;
    this.report(run, err);
  }

  /** Calls the `error` callbacks once per error (a broken stream reaches here twice when the watcher counts it a failure too). */
  private report(run: Run, err: unknown): void {
    if (run.watcher.stopped || err === run.lastReported) return;
    run.lastReported = err;
    this.callbacks.error(withStatusCode(err));
    run.markStarted();
  }

  /** The watcher's notes go to the user's logger; a stream given up as silent is reported to `error` too. */
  private logger(run: Run): Logger {
    const user = this.options.logger;
    return {
      debug: user?.debug?.bind(user),
      info: user?.info?.bind(user),
      error: user?.error?.bind(user),
      warn: (fields, msg) => {
        user?.warn?.(fields, msg);
        // The watcher's one note with `idleMs` (restart.ts, outcome `idle`): it gave up on a silent stream.
        const idleMs = (fields as { idleMs?: unknown }).idleMs;
        if (typeof idleMs === 'number') {
          this.report(run, new Error(`${msg} (no event or bookmark for ${idleMs} ms)`));
        }
      },
    };
  }

  private apply(run: Run, batch: WatcherEvent<KubeObject>[]): void {
    for (const e of batch) {
      if (run.watcher.stopped) return;
      switch (e.type) {
        case 'init':
          this.pending = [];
          break;
        case 'initApply':
          this.pending ??= [];
          this.pending.push(e.object as unknown as T);
          break;
        case 'initDone': {
          const items = this.pending ?? [];
          this.pending = undefined;
          this.resourceVersion = e.resourceVersion;
          for (const c of this.cache.replace(items)) this.callbacks.object(c.verb, c.object);
          run.markStarted();
          break;
        }
        case 'apply': {
          this.resourceVersion = e.object.metadata?.resourceVersion ?? this.resourceVersion;
          const c = this.cache.addOrUpdate(e.object as unknown as T);
          if (c) this.callbacks.object(c.verb, c.object);
          break;
        }
        case 'delete': {
          this.resourceVersion = e.object.metadata?.resourceVersion ?? this.resourceVersion;
          const c = this.cache.delete(e.object as unknown as T);
          if (c) this.callbacks.object(c.verb, c.object);
          break;
        }
        case 'bookmark':
          this.resourceVersion = e.resourceVersion;
          break;
      }
    }
  }
}
