import { type Clock, systemClock } from '../protocol/clock.js';
import { isInitialEventsEnd, type KubeObject, type WatchEvent } from '../protocol/events.js';
import { isExpired, isTooLargeResourceVersion, StatusError } from '../protocol/status.js';
import { Backoff, sleep } from './backoff.js';
import { cacheMeta } from './lazy-decode.js';
import type { ListParams, ListWatchSource, WatchStream } from './listwatch.js';
import { type ListCause, newWatcherMetrics, type WatcherMetrics } from './metrics.js';
import { TransportError } from './transport.js';
import { isProbableEof, listAll, openWatch, readEvents, type WatchIoContext } from './watch-io.js';
import type { InitialState, WatcherEvent, WatcherOptions } from './watcher-types.js';

export type { InitCause, InitialState, Logger, WatcherEvent, WatcherOptions } from './watcher-types.js';

/**
 * Where the watcher is. Every transition is in {@link Watcher.step}.
 * - Empty: nothing to watch from; list (or open a streaming list) with `relist`.
 * - InitListed: a resourceVersion to watch from (after a list, or to resume).
 * - Watching: a stream is open; `initial` while a streaming list's initial state is arriving.
 * - Backoff: wait, then go to `retry`.
 */
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
 * retried. The I/O (watch-io.ts) only reports outcomes; every place a watch
 * can restart is in {@link Watcher.step}, one switch to read against
 * client-go's reflector:
 *
 *   Empty --list--> InitListed --watch--> Watching --clean close, or reset after >= 1 s / an event--> InitListed (resume, no list)
 *     ^                                      |  410 Expired: Empty (relist not older than the last RV; then "")
 *     +-- streaming list: Empty --watch(sendInitialEvents)--> Watching (initial) --end marker--> Watching
 *   failures to start, short empty watches, errors: Backoff, then the same state again (the resourceVersion is kept)
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
  private readonly io: WatchIoContext;
  private lastResourceVersion = '';
  private started = false;

  constructor(source: ListWatchSource, opts: WatcherOptions = {}) {
    this.source = source;
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.backoff = new Backoff(this.clock, this.random, opts.backoff);
    this.streamMode = opts.initial === 'stream';
    this.io = {
      source,
      clock: this.clock,
      metrics: this.metrics,
      stopped: this.abort.signal,
      requestTimeoutMs: opts.requestTimeoutMs ?? 60_000,
      lazyDecode: opts.lazyDecode ?? false,
    };
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

  /**
   * Runs the state machine, handing each batch to `sink` and waiting for it
   * when it returns a promise; resolves once the watcher stops. The same
   * batches as {@link Watcher.batches}, without an async generator's
   * promises per batch: a quiet watcher's batch is often one bookmark, and
   * 5,000 of them in one process pay that per message (the Informer uses
   * this). Like the events, runs once.
   */
  async consume(sink: (batch: WatcherEvent<T>[]) => void | Promise<void>): Promise<void> {
    if (this.started) throw new Error('a Watcher can be iterated once');
    this.started = true;
    const signal = this.abort.signal;
    const state = await this.initialize();
    try {
      if (state.first) {
        const pending = sink(state.first);
        if (pending) await pending;
      }
      while (!signal.aborted) {
        const out: WatcherEvent<T>[] = [];
        state.at = await this.step(state.at, out);
        if (out.length > 0 && !signal.aborted) {
          const pending = sink(out);
          if (pending) await pending;
        }
      }
    } finally {
      if (state.at.kind === 'Watching') state.at.stream.close();
    }
  }

  private async *run(): AsyncGenerator<WatcherEvent<T>[]> {
    const signal = this.abort.signal;
    const state = await this.initialize();
    try {
      if (state.first) yield state.first;
      while (!signal.aborted) {
        const out: WatcherEvent<T>[] = [];
        state.at = await this.step(state.at, out);
        if (out.length > 0 && !signal.aborted) yield out;
      }
    } finally {
      if (state.at.kind === 'Watching') state.at.stream.close();
    }
  }

  /**
   * Where the watcher starts: Empty (list), or, given an initial state,
   * InitListed with that state's events as the first batch (delivered as a
   * list would be, then resumed from).
   */
  private async initialize(): Promise<{ at: State; first?: WatcherEvent<T>[] }> {
    const empty: State = { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } };
    const signal = this.abort.signal;
    const given = this.opts.initialState;
    let initial: InitialState | undefined;
    try {
      initial = typeof given === 'function' ? await given(signal) : given;
    } catch (err) {
      if (!signal.aborted) this.report(err, 'initial state unavailable: listing');
    }
    if (!initial || signal.aborted) return { at: empty };
    this.setResourceVersion(initial.resourceVersion);
    const first: WatcherEvent<T>[] = [{ type: 'init', cause: 'checkpoint' }];
    for (const object of initial.objects) first.push({ type: 'initApply', object: object as T });
    first.push({ type: 'initDone', resourceVersion: initial.resourceVersion });
    return { at: { kind: 'InitListed', resourceVersion: initial.resourceVersion, resumed: true }, first };
  }

  /**
   * One transition: do the state's I/O, then choose the next state from its
   * outcome. This is the table of restarts; events to yield go onto `out`.
   */
  private async step(state: State, out: WatcherEvent<T>[]): Promise<State> {
    switch (state.kind) {
      case 'Empty': {
        if (this.streamMode) return this.stepStreamingList(state, out);
        // The first list reads "0" (the server's cache, like client-go); a relist after a
        // 410 reads "not older than" the last resourceVersion (see relistParams).
        this.metrics.lists[state.cause]++;
        const listed = await listAll<T>(this.io, state.relist, this.opts.pageSize ?? 500);
        if (listed.kind === 'stopped') return state;
        if (listed.kind === 'failed') {
          this.report(listed.err, 'list failed');
          if (
            (isExpired(listed.err) || isTooLargeResourceVersion(listed.err)) &&
            state.relist.resourceVersion
          ) {
            // The not-older-than read was refused too: only a consistent read ("") is left.
            const cause = isExpired(listed.err) ? 'expired' : 'tooLarge';
            return { kind: 'Empty', cause, relist: { resourceVersion: '' } };
          }
          return this.backoffTo(state, listed.err);
        }
        this.metrics.listedObjects += listed.items.length;
        this.setResourceVersion(listed.resourceVersion);
        out.push({ type: 'init', cause: state.cause });
        for (const object of listed.items) out.push({ type: 'initApply', object });
        out.push({ type: 'initDone', resourceVersion: listed.resourceVersion });
        return { kind: 'InitListed', resourceVersion: listed.resourceVersion, resumed: false };
      }

      case 'InitListed': {
        const started = await this.startWatch(state.resourceVersion, false);
        if (started.kind === 'stopped') return state;
        if (started.kind === 'opened') {
          if (state.resumed) this.metrics.resumes++;
          return started.state;
        }
        const err = started.err;
        this.report(err, 'watch failed to start');
        if (isExpired(err)) return { kind: 'Empty', cause: 'expired', relist: this.relistParams() };
        if (isTooLargeResourceVersion(err)) {
          // The server is behind our resourceVersion (a lagging server, or a restarted one with a
          // new store): relist not older than it, and if that is refused too, consistently.
          return this.backoffTo({ kind: 'Empty', cause: 'tooLarge', relist: this.relistParams() }, err);
        }
        return this.backoffTo({ ...state, resumed: true }, err);
      }

      case 'Watching': {
        const read = await readEvents(this.io, state.stream, this.idleTimeoutMs(state.timeoutMs));
        const lived = this.clock.now() - state.startedAt;
        const worked = state.events > 0 || lived >= (this.opts.minWatchMs ?? 1_000);
        switch (read.kind) {
          case 'stopped':
            return state;
          case 'events':
            for (const event of read.events) {
              const ended = this.applyEvent(state, event, out);
              if (ended) return ended;
            }
            return state;
          case 'idle':
            // Dead TCP connections are the classic cause of silent informers: give up on this one and resume.
            this.metrics.watchEnds.idle++;
            this.opts.logger?.warn?.(
              { idleMs: this.idleTimeoutMs(state.timeoutMs) },
              'watch stream silent for too long: resuming',
            );
            return this.resume(state);
          case 'closed':
            if (lived >= state.timeoutMs - 1_000) this.metrics.watchEnds.timeout++;
            else this.metrics.watchEnds.serverClose++;
            if (!worked) {
              // client-go: a watch that ends at once with nothing is an error, or a hot loop.
              this.metrics.errors++;
              return this.backoffTo(this.resume(state));
            }
            return this.resume(state);
          case 'cut':
            if (isProbableEof(read.err) && worked) {
              // client-go's IsProbableEOF: a reset or an unexpected EOF ends a watch
              // that was working the way a clean close does (a load balancer or a
              // restarting server cut it). Resume at once; backing off would let a
              // quiet watcher's resourceVersion fall out of the window (410, relist).
              this.metrics.watchEnds.reset++;
              this.opts.logger?.info?.(
                { err: describe(read.err), resourceVersion: this.lastResourceVersion },
                'watch stream cut: resuming',
              );
              return this.resume(state);
            }
            this.metrics.watchEnds.error++;
            this.report(read.err, 'watch stream broke');
            return this.backoffTo(this.resume(state));
        }
        break;
      }

      case 'Backoff':
        await sleep(this.clock, state.delayMs, this.abort.signal);
        return state.retry;
    }
    return state;
  }

  /** Empty, in streaming-list mode (KEP-3157): the initial state arrives as events on the watch itself. */
  private async stepStreamingList(
    state: Extract<State, { kind: 'Empty' }>,
    out: WatcherEvent<T>[],
  ): Promise<State> {
    const from = state.relist.resourceVersion === '0' ? '' : (state.relist.resourceVersion ?? '');
    const started = await this.startWatch(from, true);
    if (started.kind === 'stopped') return state;
    if (started.kind === 'opened') {
      this.metrics.lists[state.cause]++;
      out.push({ type: 'init', cause: state.cause });
      return started.state;
    }
    const err = started.err;
    this.report(err, 'watch failed to start');
    if (isExpired(err)) return { kind: 'Empty', cause: 'expired', relist: this.relistParams() };
    if (isTooLargeResourceVersion(err)) {
      // The server is behind the resourceVersion asked for: start over with a consistent read.
      return this.backoffTo({ kind: 'Empty', cause: 'tooLarge', relist: { resourceVersion: '' } }, err);
    }
    if (err instanceof StatusError && [400, 403, 422].includes(err.code)) {
      // sendInitialEvents refused (WatchList off, or an old server): paginated lists from now on, at once.
      this.streamMode = false;
      return state;
    }
    return this.backoffTo(state, err);
  }

  /** Opens a watch from `resourceVersion` (or a streaming list when `initial`); the Watching state if it opened. */
  private async startWatch(
    resourceVersion: string,
    initial: boolean,
  ): Promise<
    | { kind: 'opened'; state: Extract<State, { kind: 'Watching' }> }
    | { kind: 'failed'; err: unknown }
    | { kind: 'stopped' }
  > {
    const [min, max] = this.opts.watchTimeoutMs ?? [300_000, 600_000];
    const timeoutMs = min + this.random() * (max - min);
    const bookmarks = this.opts.bookmarks ?? true;
    const started = await openWatch(this.io, { resourceVersion, initial, bookmarks, timeoutMs });
    if (started.kind !== 'opened') return started;
    return {
      kind: 'opened',
      state: {
        kind: 'Watching',
        resourceVersion,
        stream: started.stream,
        startedAt: this.clock.now(),
        timeoutMs,
        events: 0,
        initial,
      },
    };
  }

  /** Turns one watch event into watcher events; the next state only when an ERROR event ended the stream. */
  private applyEvent(
    state: Extract<State, { kind: 'Watching' }>,
    event: WatchEvent,
    out: WatcherEvent<T>[],
  ): State | undefined {
    state.events++;
    this.metrics.events[event.type] = (this.metrics.events[event.type] ?? 0) + 1;
    const object = event.object as T;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.setResourceVersion(cacheMeta(object)?.resourceVersion);
        out.push({ type: state.initial ? 'initApply' : 'apply', object });
        return undefined;
      case 'DELETED':
        this.setResourceVersion(cacheMeta(object)?.resourceVersion);
        out.push({ type: 'delete', object });
        return undefined;
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
        return undefined;
      }
      case 'ERROR': {
        state.stream.close();
        const status = StatusError.fromStream(event.object as never);
        if (isExpired(status)) {
          this.metrics.watchEnds.expired++;
          this.report(status, 'watch expired: relisting');
          return { kind: 'Empty', cause: 'expired', relist: this.relistParams() };
        }
        this.metrics.watchEnds.error++;
        this.report(status, 'watch ended with an error');
        return this.backoffTo(this.resume(state), status);
      }
    }
    return undefined;
  }

  /**
   * After a stream ends: watch again from the last resourceVersion, no list;
   * a streaming list cut before its end marker starts over instead.
   */
  private resume(state: Extract<State, { kind: 'Watching' }>): State {
    if (state.initial) return { kind: 'Empty', cause: 'error', relist: this.relistParams() };
    return { kind: 'InitListed', resourceVersion: this.lastResourceVersion, resumed: true };
  }

  /** Wait the backoff (at least the server's Retry-After, if `err` carries one), then `retry`. */
  private backoffTo(retry: State, err?: unknown): State {
    return { kind: 'Backoff', retry, delayMs: this.backoff.next(retryAfterMs(err)) };
  }

  /** client-go: relist "not older than" the last resourceVersion; "" (consistent) when there is none. */
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

function retryAfterMs(err: unknown): number {
  if (err instanceof StatusError) return (err.status.details?.retryAfterSeconds ?? 0) * 1000;
  return 0;
}

function describe(err: unknown): string {
  if (err instanceof StatusError) return `${err.code} ${err.reason ?? ''}: ${err.message}`;
  if (err instanceof TransportError) return err.message;
  return err instanceof Error ? err.message : String(err);
}
