import { type Clock, systemClock } from '../protocol/clock.js';
import { isInitialEventsEnd, type KubeObject, type WatchEvent } from '../protocol/events.js';
import { isExpired, isTooLargeResourceVersion, StatusError } from '../protocol/status.js';
import { Backoff, type BackoffOptions, sleep } from './backoff.js';
import { cacheMeta } from './lazy-decode.js';
import type { ListParams, ListWatchSource, WatchStream } from './listwatch.js';
import { type ListCause, newWatcherMetrics, type WatcherMetrics } from './metrics.js';
import { TransportError } from './transport.js';

/** Why an `init` began: a (re)list's cause, or `checkpoint` for a state given by {@link WatcherOptions.initialState}. */
export type InitCause = ListCause | 'checkpoint';

/**
 * A state to start from instead of listing (e.g. a saved checkpoint): its
 * objects and the resourceVersion they are current at.
 */
export interface InitialState<T extends KubeObject = KubeObject> {
  resourceVersion: string;
  objects: T[];
}

/** What a watcher yields. `init`..`initDone` bracket every (re)list; the rest are live changes. */
export type WatcherEvent<T extends KubeObject = KubeObject> =
  | { type: 'init'; cause: InitCause }
  | { type: 'initApply'; object: T }
  | { type: 'initDone'; resourceVersion: string }
  | { type: 'apply'; object: T }
  | { type: 'delete'; object: T }
  | { type: 'bookmark'; resourceVersion: string };

/** A pino-compatible logger (only the methods used). */
export interface Logger {
  debug?(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
}

/** Options of {@link Watcher}; defaults are client-go's reflector's. */
export interface WatcherOptions {
  /** Ask for bookmarks (default true). */
  bookmarks?: boolean;
  /** How to get the initial state: paginated `list` (default) or streaming list (`stream`, falls back to list if refused). */
  initial?: 'list' | 'stream';
  /** List page size (500; 0 = no pagination). */
  pageSize?: number;
  /** Watch timeoutSeconds is random in [min, max) ms (default [300 s, 600 s)). */
  watchTimeoutMs?: [number, number];
  /** Backoff after failures (800 ms doubling to 30 s, jitter 1.0, reset after 2 min). */
  backoff?: BackoffOptions;
  /** A stream silent for longer than this is abandoned and resumed (default: its watch timeout + 5 s). */
  idleTimeoutMs?: number;
  /**
   * A list page or watch request not answered within this is abandoned and retried (default 60 s,
   * kube-apiserver's own limit for a list): one sent on a dead connection is never answered.
   */
  requestTimeoutMs?: number;
  /** The server's bookmark interval, if known: tightens the idle timeout to 3 intervals. */
  serverBookmarkIntervalMs?: number;
  /** A watch that ends sooner than this with no events counts as an error (1 s). */
  minWatchMs?: number;
  /**
   * Decode objects lazily (default false): keep each object's JSON text and
   * read only its namespace, name and resourceVersion until something reads
   * the object, which is then parsed once, transparently. Faster and smaller
   * when handlers read few objects; see lazy-decode.ts for the limits.
   */
  lazyDecode?: boolean;
  /**
   * Start from this state instead of a list (or from what the function,
   * given the watcher's stop signal, resolves to; undefined: list as usual).
   * It is yielded as `init` (cause `checkpoint`), `initApply`..., `initDone`,
   * then the watch resumes from its resourceVersion; a 410 relists with the
   * usual rules. Correctness never
   * depends on it: a stale resourceVersion only costs that relist.
   */
  initialState?: InitialState | ((signal: AbortSignal) => Promise<InitialState | undefined>);
  /** Ends the watcher. */
  signal?: AbortSignal;
  clock?: Clock;
  random?: () => number;
  logger?: Logger;
  /** Called with every failure (after it is counted, before the retry). */
  onError?: (err: unknown) => void;
}

type State =
  | { kind: 'Empty'; cause: ListCause; relist: ListParams }
  | { kind: 'InitListed'; resourceVersion: string; resumed: boolean }
  | {
      kind: 'Watching';
      resourceVersion: string;
      stream: WatchStream;
      startedAt: number;
      timeoutMs: number;
      events: number;
      initial: boolean;
    }
  | { kind: 'Backoff'; retry: State; delayMs: number };

/**
 * The list-watch state machine: a pull-based async iterable of
 * {@link WatcherEvent}s for one resource. It never stops on its own: only its
 * AbortSignal (or `stop()`) ends it; every failure is counted, reported and
 * retried. Every place a watch can restart is in {@link Watcher.step}.
 *
 *   Empty --list pages--> InitListed --watch--> Watching --clean close--> Watching (resume, no list)
 *     ^                                           |  410 Expired: Empty (relist from last RV, not older than)
 *     +-- streaming list: Empty --watch(sendInitialEvents)--> Watching (initial) --end marker--> Watching
 *   any error: Backoff, then the same state again (the resourceVersion is kept)
 */
export class Watcher<T extends KubeObject = KubeObject> implements AsyncIterable<WatcherEvent<T>> {
  readonly metrics: WatcherMetrics = newWatcherMetrics();
  private readonly source: ListWatchSource;
  private readonly opts: WatcherOptions;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly abort = new AbortController();
  private streamMode: boolean;
  private lastResourceVersion = '';
  private started = false;

  constructor(source: ListWatchSource, opts: WatcherOptions = {}) {
    this.source = source;
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.backoff = new Backoff(this.clock, this.random, opts.backoff);
    this.streamMode = opts.initial === 'stream';
    if (opts.signal) {
      if (opts.signal.aborted) this.abort.abort(opts.signal.reason);
      else opts.signal.addEventListener('abort', () => this.abort.abort(opts.signal?.reason), { once: true });
    }
  }

  /** The last resourceVersion received (events and bookmarks). */
  get resourceVersion(): string {
    return this.lastResourceVersion;
  }

  /** Ends the watcher; a pending read resolves as done. */
  stop(): void {
    this.abort.abort(new Error('watcher stopped'));
  }

  /** Whether the watcher was stopped (`stop()` or its signal): no event is handed out after that. */
  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  [Symbol.asyncIterator](): AsyncIterator<WatcherEvent<T>> {
    return this.events();
  }

  /**
   * The same events in the batches the state machine produces them (a list,
   * or the events of one received chunk): one await per batch instead of one
   * per event, for consumers that apply events synchronously (the Informer).
   * Check {@link Watcher.stopped} between events. Like the events, iterable once.
   */
  batches(): AsyncIterable<WatcherEvent<T>[]> {
    if (this.started) throw new Error('a Watcher can be iterated once');
    this.started = true;
    return { [Symbol.asyncIterator]: () => this.run() };
  }

  private async *events(): AsyncGenerator<WatcherEvent<T>> {
    for await (const batch of this.batches()) {
      for (const e of batch) {
        if (this.stopped) return;
        yield e;
      }
    }
  }

  private async *run(): AsyncGenerator<WatcherEvent<T>[]> {
    let state: State = { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } };
    const signal = this.abort.signal;
    try {
      const given = this.opts.initialState;
      let initial: InitialState | undefined;
      try {
        initial = typeof given === 'function' ? await given(signal) : given;
      } catch (err) {
        if (!signal.aborted) this.report(err, 'initial state unavailable: listing');
      }
      if (initial && !signal.aborted) {
        // Delivered as a list would be, then resumed from: InitListed, as after a list.
        this.setResourceVersion(initial.resourceVersion);
        const out: WatcherEvent<T>[] = [{ type: 'init', cause: 'checkpoint' }];
        for (const object of initial.objects) out.push({ type: 'initApply', object: object as T });
        out.push({ type: 'initDone', resourceVersion: initial.resourceVersion });
        state = { kind: 'InitListed', resourceVersion: initial.resourceVersion, resumed: true };
        yield out;
      }
      while (!signal.aborted) {
        const out: WatcherEvent<T>[] = [];
        state = await this.step(state, out);
        if (out.length > 0 && !signal.aborted) yield out;
      }
    } finally {
      if (state.kind === 'Watching') state.stream.close();
    }
  }

  /** One transition. Events to yield are pushed onto `out`. */
  private async step(state: State, out: WatcherEvent<T>[]): Promise<State> {
    const signal = this.abort.signal;
    switch (state.kind) {
      case 'Empty':
        if (this.streamMode) return this.startStreamingList(state, out);
        return this.list(state, out);

      case 'InitListed': {
        const next = await this.startWatch(state.resourceVersion, false);
        if (next.kind === 'Watching' && state.resumed) this.metrics.resumes++;
        return next;
      }

      case 'Watching':
        return this.readWatch(state, out);

      case 'Backoff':
        await sleep(this.clock, state.delayMs, signal);
        return state.retry;
    }
  }

  /**
   * A (paginated) list. The first list reads "0" (the server's cache, like
   * client-go); after a 410 it reads "not older than" the last resourceVersion;
   * if that is refused too (410 or "too large") it falls back to a consistent
   * read (""). An expired continue token costs one full, unpaginated list.
   */
  private async list(state: Extract<State, { kind: 'Empty' }>, out: WatcherEvent<T>[]): Promise<State> {
    const signal = this.abort.signal;
    const pageSize = this.opts.pageSize ?? 500;
    this.metrics.lists[state.cause]++;
    const items: T[] = [];
    let listRV = '';
    try {
      let cont: string | undefined;
      let full = false;
      for (;;) {
        let page: Awaited<ReturnType<ListWatchSource['list']>>;
        const params: ListParams = cont
          ? { limit: pageSize, continue: cont, signal }
          : { ...state.relist, limit: full ? undefined : pageSize || undefined, signal };
        if (this.opts.lazyDecode) params.lazyDecode = true;
        try {
          page = await this.withDeadline((s) => this.source.list({ ...params, signal: s }));
        } catch (err) {
          if (cont && isExpired(err)) {
            // The continue token outlived compaction: one full list instead.
            items.length = 0;
            cont = undefined;
            full = true;
            continue;
          }
          throw err;
        }
        this.metrics.pages++;
        for (const item of page.items ?? []) items.push(item as T);
        listRV = page.metadata?.resourceVersion ?? listRV;
        cont = page.metadata?.continue || undefined;
        if (!cont || signal.aborted) break;
      }
    } catch (err) {
      if (signal.aborted) return state;
      this.report(err, 'list failed');
      if ((isExpired(err) || isTooLargeResourceVersion(err)) && state.relist.resourceVersion) {
        // The not-older-than read failed: only a consistent read is left.
        return {
          kind: 'Empty',
          cause: isExpired(err) ? 'expired' : 'tooLarge',
          relist: { resourceVersion: '' },
        };
      }
      return { kind: 'Backoff', retry: state, delayMs: this.backoff.next(retryAfterMs(err)) };
    }
    this.metrics.listedObjects += items.length;
    this.setResourceVersion(listRV);
    out.push({ type: 'init', cause: state.cause });
    for (const object of items) out.push({ type: 'initApply', object });
    out.push({ type: 'initDone', resourceVersion: listRV });
    return { kind: 'InitListed', resourceVersion: listRV, resumed: false };
  }

  /** A streaming list (KEP-3157): the initial state arrives as events on the watch itself. */
  private async startStreamingList(
    state: Extract<State, { kind: 'Empty' }>,
    out: WatcherEvent<T>[],
  ): Promise<State> {
    const next = await this.startWatch(
      state.relist.resourceVersion === '0' ? '' : (state.relist.resourceVersion ?? ''),
      true,
    );
    if (next.kind === 'Watching') {
      this.metrics.lists[state.cause]++;
      out.push({ type: 'init', cause: state.cause });
      return next;
    }
    if (next.kind === 'Backoff' && next.retry.kind === 'Empty' && !this.streamMode) {
      // The server refused streaming lists: fall back to the paginated list now.
      return state;
    }
    if (next.kind === 'Backoff' && next.retry.kind === 'Empty' && next.retry.cause === 'tooLarge') {
      // The server is behind the resourceVersion asked for: start over with a consistent read.
      return { ...next, retry: { kind: 'Empty', cause: 'tooLarge', relist: { resourceVersion: '' } } };
    }
    return next.kind === 'Backoff' ? { ...next, retry: state } : next;
  }

  private watchTimeoutMs(): number {
    const [min, max] = this.opts.watchTimeoutMs ?? [300_000, 600_000];
    return min + this.random() * (max - min);
  }

  /** Opens a watch from `resourceVersion` (or a streaming list when `initial`). */
  private async startWatch(resourceVersion: string, initial: boolean): Promise<State> {
    const signal = this.abort.signal;
    const timeoutMs = this.watchTimeoutMs();
    try {
      const stream = await this.withDeadline((signal) =>
        this.source.watch({
          resourceVersion: initial ? resourceVersion || undefined : resourceVersion,
          resourceVersionMatch: initial ? 'NotOlderThan' : undefined,
          sendInitialEvents: initial ? true : undefined,
          allowWatchBookmarks: initial || (this.opts.bookmarks ?? true),
          timeoutSeconds: Math.max(1, Math.floor(timeoutMs / 1000)),
          signal,
          ...(this.opts.lazyDecode ? { lazyDecode: true } : {}),
        }),
      );
      this.metrics.watchesStarted++;
      return {
        kind: 'Watching',
        resourceVersion,
        stream,
        startedAt: this.clock.now(),
        timeoutMs,
        events: 0,
        initial,
      };
    } catch (err) {
      const again: State = initial
        ? { kind: 'Empty', cause: 'initial', relist: { resourceVersion } }
        : { kind: 'InitListed', resourceVersion, resumed: true };
      if (signal.aborted) return again;
      this.report(err, 'watch failed to start');
      if (isExpired(err)) return { kind: 'Empty', cause: 'expired', relist: this.relistParams() };
      if (isTooLargeResourceVersion(err)) {
        // The server is behind our resourceVersion (a lagging or restarted server with a
        // new store): relist not older than it, and if that is refused too, consistently.
        return {
          kind: 'Backoff',
          retry: { kind: 'Empty', cause: 'tooLarge', relist: this.relistParams() },
          delayMs: this.backoff.next(retryAfterMs(err)),
        };
      }
      if (initial && err instanceof StatusError && [400, 403, 422].includes(err.code)) {
        // sendInitialEvents refused (WatchList off, or an old server): use paginated lists from now on.
        this.streamMode = false;
        return {
          kind: 'Backoff',
          retry: { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } },
          delayMs: 0,
        };
      }
      return { kind: 'Backoff', retry: again, delayMs: this.backoff.next(retryAfterMs(err)) };
    }
  }

  /**
   * Reads the next event of an open watch, and every further event already
   * decoded (or notices its end, an idle stream, or an error). Taking a
   * chunk's events in one step keeps the idle timer and abort listener to one
   * per read instead of one per event.
   */
  private async readWatch(
    state: Extract<State, { kind: 'Watching' }>,
    out: WatcherEvent<T>[],
  ): Promise<State> {
    const idleMs = this.idleTimeoutMs(state.timeoutMs);
    let event: Awaited<ReturnType<WatchStream['next']>>;
    try {
      event = await this.withIdleTimeout(state.stream.next(), idleMs);
    } catch (err) {
      state.stream.close();
      if (this.abort.signal.aborted) return state;
      if (err === IDLE) {
        // Dead TCP connections are the classic cause of silent informers: give up on this one and resume.
        this.metrics.watchEnds.idle++;
        this.opts.logger?.warn?.({ idleMs }, 'watch stream silent for too long: resuming');
        return this.resume(state);
      }
      this.metrics.watchEnds.error++;
      this.report(err, 'watch stream broke');
      return { kind: 'Backoff', retry: this.afterStream(state), delayMs: this.backoff.next() };
    }
    if (event === undefined) {
      state.stream.close();
      const lived = this.clock.now() - state.startedAt;
      if (lived >= state.timeoutMs - 1_000) this.metrics.watchEnds.timeout++;
      else this.metrics.watchEnds.serverClose++;
      const minMs = this.opts.minWatchMs ?? 1_000;
      if (state.events === 0 && lived < minMs) {
        // client-go: a watch that ends at once with nothing is an error, or a hot loop.
        this.metrics.errors++;
        return { kind: 'Backoff', retry: this.afterStream(state), delayMs: this.backoff.next() };
      }
      return this.resume(state);
    }
    this.metrics.lastEventAt = this.clock.now();
    this.metrics.bytesRead = this.source.bytesRead;
    for (let e: WatchEvent | undefined = event; e !== undefined; e = state.stream.poll?.()) {
      const next = this.applyEvent(state, e, out);
      if (next !== state) return next;
    }
    return state;
  }

  /** Turns one watch event into watcher events; a new state only when the stream ended with an ERROR. */
  private applyEvent(
    state: Extract<State, { kind: 'Watching' }>,
    event: WatchEvent,
    out: WatcherEvent<T>[],
  ): State {
    state.events++;
    this.metrics.events[event.type] = (this.metrics.events[event.type] ?? 0) + 1;
    const object = event.object as T;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.setResourceVersion(cacheMeta(object)?.resourceVersion);
        out.push({ type: state.initial ? 'initApply' : 'apply', object });
        break;
      case 'DELETED':
        this.setResourceVersion(cacheMeta(object)?.resourceVersion);
        out.push({ type: 'delete', object });
        break;
      case 'BOOKMARK': {
        this.metrics.bookmarks++;
        const rv = object.metadata?.resourceVersion;
        this.setResourceVersion(rv);
        if (state.initial && isInitialEventsEnd(object)) {
          state.initial = false;
          out.push({ type: 'initDone', resourceVersion: rv ?? this.lastResourceVersion });
        } else if (rv) {
          out.push({ type: 'bookmark', resourceVersion: rv });
        }
        break;
      }
      case 'ERROR': {
        state.stream.close();
        const status = new StatusError(event.object as never);
        if (isExpired(status)) {
          this.metrics.watchEnds.expired++;
          this.report(status, 'watch expired: relisting');
          return { kind: 'Empty', cause: 'expired', relist: this.relistParams() };
        }
        this.metrics.watchEnds.error++;
        this.report(status, 'watch ended with an error');
        return {
          kind: 'Backoff',
          retry: this.afterStream(state),
          delayMs: this.backoff.next(retryAfterMs(status)),
        };
      }
    }
    return state;
  }

  /** Where to go after a stream ends: resume the watch, or restart a streaming list cut before its end marker. */
  private afterStream(state: Extract<State, { kind: 'Watching' }>): State {
    if (state.initial) return { kind: 'Empty', cause: 'error', relist: this.relistParams() };
    return { kind: 'InitListed', resourceVersion: this.lastResourceVersion, resumed: true };
  }

  /** A clean end: watch again from the last resourceVersion, no list. */
  private resume(state: Extract<State, { kind: 'Watching' }>): State {
    return this.afterStream(state);
  }

  private relistParams(): ListParams {
    return this.lastResourceVersion
      ? { resourceVersion: this.lastResourceVersion, resourceVersionMatch: 'NotOlderThan' }
      : { resourceVersion: '' };
  }

  private idleTimeoutMs(watchTimeoutMs: number): number {
    if (this.opts.idleTimeoutMs !== undefined) return this.opts.idleTimeoutMs;
    if (this.opts.serverBookmarkIntervalMs !== undefined && (this.opts.bookmarks ?? true)) {
      return Math.min(watchTimeoutMs + 5_000, 3 * this.opts.serverBookmarkIntervalMs);
    }
    return watchTimeoutMs + 5_000;
  }

  /**
   * Runs one list or watch request under the request timeout: a request sent
   * on a dead connection (say a pooled keep-alive socket whose peer vanished)
   * is never answered, and nothing else would ever end it. The signal given
   * to `call` aborts on the deadline or when the watcher stops; once `call`
   * settles the deadline is off (an open stream has the idle timeout).
   */
  private async withDeadline<R>(call: (signal: AbortSignal) => Promise<R>): Promise<R> {
    const ms = this.opts.requestTimeoutMs ?? 60_000;
    const stopped = this.abort.signal;
    const request = new AbortController();
    const onStop = () => request.abort(stopped.reason);
    if (stopped.aborted) onStop();
    else stopped.addEventListener('abort', onStop, { once: true });
    const timer = this.clock.setTimeout(
      () => request.abort(new TransportError(`no answer within ${ms} ms (a dead connection?)`, 'ETIMEDOUT')),
      ms,
    );
    try {
      return await call(request.signal);
    } finally {
      timer.cancel();
      stopped.removeEventListener('abort', onStop);
    }
  }

  private withIdleTimeout<R>(p: Promise<R>, ms: number): Promise<R> {
    const signal = this.abort.signal;
    return new Promise((resolve, reject) => {
      const settle = (fn: () => void) => {
        timer.cancel();
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => settle(() => reject(new Error('aborted')));
      const timer = this.clock.setTimeout(() => settle(() => reject(IDLE)), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => settle(() => resolve(v)),
        (e) => settle(() => reject(e)),
      );
    });
  }

  private setResourceVersion(rv: string | undefined): void {
    if (!rv) return;
    this.lastResourceVersion = rv;
    this.metrics.resourceVersion = rv;
  }

  private report(err: unknown, what: string): void {
    this.metrics.errors++;
    this.metrics.bytesRead = this.source.bytesRead;
    this.opts.logger?.warn?.({ err: describe(err) }, what);
    this.opts.onError?.(err);
  }
}

const IDLE = Symbol('idle');

function retryAfterMs(err: unknown): number {
  if (err instanceof StatusError) return (err.status.details?.retryAfterSeconds ?? 0) * 1000;
  return 0;
}

function describe(err: unknown): string {
  if (err instanceof StatusError) return `${err.code} ${err.reason ?? ''}: ${err.message}`;
  if (err instanceof TransportError) return `${err.code ?? 'transport'}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
