import { type Clock, sleep, systemClock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import type { ListWatchSource } from './listwatch.js';
import { newWatcherMetrics, type WatcherMetrics } from './metrics.js';
import { decide } from './restart.js';
import { describeError } from './watch-errors.js';
import { listAll, openWatch, readEvents, type WatchIoContext } from './watch-io.js';
import {
  type Outcome,
  type RestartEnv,
  requestedResourceVersion,
  startState,
  type Transition,
  type WatcherState,
} from './watcher-state.js';
import type { WatcherEvent, WatcherOptions } from './watcher-types.js';

export type {
  InitCause,
  InitialState,
  Logger,
  WatcherEvent,
  WatcherFailure,
  WatcherNextAction,
  WatcherOptions,
} from './watcher-types.js';

/**
 * The list-watch state machine: a pull-based async iterable of
 * {@link WatcherEvent}s for one resource. It never stops on its own: only its
 * AbortSignal (or `stop()`) ends it; every failure is counted, reported and
 * retried. This class only runs I/O: each phase's request (watch-io.ts), whose
 * outcome goes to `decide` (restart.ts), the one switch that chooses the next
 * state, the wait before it and the events to hand out. Read against
 * client-go's reflector:
 *
 *   Start --no initial state--> Empty --list--> InitListed --watch--> Watching
 *   Start --initial state (a checkpoint)--> InitListed
 *   Empty --streaming list (sendInitialEvents)--> Watching (initial) --end marker--> Watching
 *   Watching --clean close, silence past the idle timeout, or a reset after >= 1 s / an event-->
 *     InitListed (resume: no list, at once)
 *   Watching (initial) --ends before its end marker--> Empty (the streaming list starts over)
 *   410 Expired / "too large" --> Empty: after a list or streaming list that named a resourceVersion,
 *     a consistent read ("") at once; after a watch, a relist not older than the last resourceVersion
 *   any other failure --> the same request again, after the backoff (the resourceVersion is kept;
 *     a watch that failed is retried as a resume)
 */
export class Watcher<T extends KubeObject = KubeObject> implements AsyncIterable<WatcherEvent<T>> {
  readonly metrics: WatcherMetrics = newWatcherMetrics();
  private readonly source: ListWatchSource;
  private readonly opts: WatcherOptions;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly abort = new AbortController();
  private readonly io: WatchIoContext;
  /** The moment of the outcome being decided, and the fixed settings `decide` reads. */
  private readonly env: RestartEnv;
  /** Everything that changes: the phase, the last resourceVersion, the stream mode, the backoff attempt. */
  private state: WatcherState;
  private started = false;

  constructor(source: ListWatchSource, opts: WatcherOptions = {}) {
    this.source = source;
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
    this.state = startState(opts.initial === 'stream');
    this.env = {
      now: 0,
      random: 0,
      backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
      minWatchMs: opts.minWatchMs ?? 1_000,
    };
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

  /** The last resourceVersion received (lists, events and bookmarks; a streaming list's once it ends). */
  get resourceVersion(): string {
    return this.state.resourceVersion;
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
   * per event, for consumers that apply events synchronously. Check
   * {@link Watcher.stopped} between events. Like the events, iterable once;
   * leaving the iteration early stops the watcher.
   */
  batches(): AsyncIterable<WatcherEvent<T>[]> {
    this.claim();
    return {
      [Symbol.asyncIterator]: () =>
        handOff<WatcherEvent<T>[]>(
          (sink) => this.run(sink),
          () => this.stop(),
        ),
    };
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
    this.claim();
    await this.run(sink);
  }

  private claim(): void {
    if (this.started) throw new Error('a Watcher can be iterated once');
    this.started = true;
  }

  /** The one loop: the phase's I/O, `decide`, the batch to `sink`, then the wait it asked for. */
  private async run(sink: (batch: WatcherEvent<T>[]) => void | Promise<void>): Promise<void> {
    const signal = this.abort.signal;
    try {
      while (!signal.aborted) {
        const outcome = await this.perform();
        if (!outcome || signal.aborted) break;
        const t = this.apply(outcome);
        if (t.events.length > 0 && !signal.aborted) {
          const pending = sink(t.events as WatcherEvent<T>[]);
          if (pending) await pending;
        }
        if (t.delayMs > 0) await sleep(this.clock, t.delayMs, signal);
      }
    } finally {
      const { phase } = this.state;
      if (phase.kind === 'Watching') phase.stream.close();
    }
  }

  /** The I/O the current phase asks for, as an outcome for `decide`; undefined once stopped. */
  private async perform(): Promise<Outcome | undefined> {
    const { phase } = this.state;
    switch (phase.kind) {
      case 'Start':
        return this.lookUpInitialState();
      case 'Empty': {
        if (this.state.streamMode) return this.watch(requestedResourceVersion(this.state), true);
        const pageSize = phase.full ? 0 : (this.opts.pageSize ?? 500);
        const listed = await listAll<T>(this.io, phase.relist, pageSize);
        if (listed.kind === 'stopped') return undefined;
        return listed.kind === 'failed' ? { kind: 'listFailed', err: listed.err } : listed;
      }
      case 'InitListed':
        return this.watch(this.state.resourceVersion, false);
      case 'Watching': {
        const idleMs = this.idleTimeoutMs(phase.timeoutMs);
        const read = await readEvents(this.io, phase.stream, idleMs);
        if (read.kind === 'stopped') return undefined;
        return read.kind === 'idle' ? { kind: 'idle', idleMs } : read;
      }
    }
  }

  /** Start: the state given by `WatcherOptions.initialState`, if any. */
  private async lookUpInitialState(): Promise<Outcome | undefined> {
    const given = this.opts.initialState;
    try {
      const state = typeof given === 'function' ? await given(this.abort.signal) : given;
      return this.stopped ? undefined : { kind: 'initialState', given: state };
    } catch (err) {
      return this.stopped ? undefined : { kind: 'initialStateFailed', err };
    }
  }

  /** Opens a watch from `resourceVersion` (or a streaming list when `initial`). */
  private async watch(resourceVersion: string, initial: boolean): Promise<Outcome | undefined> {
    const [min, max] = this.opts.watchTimeoutMs ?? [300_000, 600_000];
    const timeoutMs = min + this.random() * (max - min);
    const bookmarks = this.opts.bookmarks ?? true;
    const started = await openWatch(this.io, { resourceVersion, initial, bookmarks, timeoutMs });
    if (started.kind === 'stopped') return undefined;
    if (started.kind === 'failed') return { kind: 'watchFailed', err: started.err };
    return { kind: 'watchOpened', stream: started.stream, timeoutMs };
  }

  /** Decides what follows `outcome`, and does what the decision says besides the next I/O: count, close, log, report. */
  private apply(outcome: Outcome): Transition {
    const before = this.state;
    this.env.now = this.clock.now();
    this.env.random = this.random();
    const t = decide(before, outcome, this.env);
    this.state = t.next;
    const m = this.metrics;
    const { list, watchEnd, resume, error } = t.counted;
    if (list) m.lists[list]++;
    if (watchEnd) m.watchEnds[watchEnd]++;
    if (resume) m.resumes++;
    if (error) m.errors++;
    m.resourceVersion = t.next.resourceVersion;
    // The stream a transition leaves is closed here, however it ended.
    const left = before.phase;
    if (
      left.kind === 'Watching' &&
      (t.next.phase.kind !== 'Watching' || t.next.phase.stream !== left.stream)
    ) {
      left.stream.close();
    }
    if (t.note) this.opts.logger?.[t.note.level]?.(t.note.fields, t.note.msg);
    if (t.failure) {
      m.bytesRead = this.source.bytesRead;
      this.opts.logger?.warn?.({ err: describeError(t.failure.error) }, t.failure.what);
      this.opts.onError?.(t.failure.error, t.failure);
    }
    return t;
  }

  private idleTimeoutMs(watchTimeoutMs: number): number {
    if (this.opts.idleTimeoutMs !== undefined) return this.opts.idleTimeoutMs;
    if (this.opts.serverBookmarkIntervalMs !== undefined && (this.opts.bookmarks ?? true)) {
      return Math.min(watchTimeoutMs + 5_000, 3 * this.opts.serverBookmarkIntervalMs);
    }
    return watchTimeoutMs + 5_000;
  }
}

/**
 * The batches `run` hands its sink, as an async iterator: `run` waits until
 * each batch is taken and the next asked for, as a generator would. When the
 * iteration ends early, `stop` ends `run` (and it is awaited: its stream closed).
 */
async function* handOff<B>(
  run: (sink: (batch: B) => Promise<void>) => Promise<void>,
  stop: () => void,
): AsyncGenerator<B> {
  let batch: B | undefined;
  let taken: (() => void) | undefined;
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: { err: unknown } | undefined;
  const running = run(
    (b) =>
      new Promise<void>((resolve) => {
        batch = b;
        taken = resolve;
        wake?.();
      }),
  ).then(
    () => {
      finished = true;
      wake?.();
    },
    (err: unknown) => {
      failure = { err };
      finished = true;
      wake?.();
    },
  );
  try {
    for (;;) {
      while (batch === undefined && !finished) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      if (batch === undefined) break;
      const b = batch;
      batch = undefined;
      yield b;
      const release = taken;
      taken = undefined;
      release?.();
    }
    if (failure) throw failure.err;
  } finally {
    stop();
    taken?.();
    await running;
  }
}
