/**
 * The watcher's I/O: one list (all its pages), one watch request, one read
 * of an open stream. Each reports what happened as an outcome, and counts
 * what it read (pages, objects, events, bytes); it decides nothing: which
 * state comes next, and whether to wait first, is `decide`'s alone
 * (src/client/watch/restart.ts).
 */
import type { Clock, TimerHandle } from '../../protocol/clock.js';
import type { KubeObject, WatchEvent } from '../../protocol/events.js';
import { isExpired } from '../../protocol/status.js';
import { TransportError } from '../http/transport.js';
import type { ListParams, ListWatchSource, WatchStream } from './listwatch.js';
import type { WatcherMetrics } from './metrics.js';

/** What the I/O functions share with the watcher that owns them. */
export interface WatchIoContext {
  source: ListWatchSource;
  clock: Clock;
  metrics: WatcherMetrics;
  /** Aborts when the watcher stops. */
  stopped: AbortSignal;
  /** A list page or watch request not answered within this is abandoned (ms). */
  requestTimeoutMs: number;
  lazyDecode: boolean;
}

/** How one list ended. */
export type ListOutcome<T extends KubeObject> =
  | { kind: 'listed'; items: T[]; resourceVersion: string }
  | { kind: 'failed'; err: unknown }
  /** A later page's continue token expired (410): the caller decides what follows. */
  | { kind: 'continueExpired'; err: unknown }
  | { kind: 'stopped' };

/** One list with `params`, in pages of `pageSize` (0: unpaginated). */
export async function listAll<T extends KubeObject>(
  io: WatchIoContext,
  params: ListParams,
  pageSize: number,
): Promise<ListOutcome<T>> {
  let items: T[] = [];
  let borrowed = false;
  let resourceVersion = '';
  let cont: string | undefined;
  try {
    for (;;) {
      const page: ListParams = cont
        ? { limit: pageSize, continue: cont }
        : { ...params, limit: pageSize || undefined };
      if (io.lazyDecode) page.lazyDecode = true;
      let list: Awaited<ReturnType<ListWatchSource['list']>>;
      try {
        list = await withDeadline(io, 'list', (signal) => io.source.list({ ...page, signal }));
      } catch (err) {
        if (cont && isExpired(err) && !io.stopped.aborted) return { kind: 'continueExpired', err };
        throw err;
      }
      io.metrics.pages++;
      io.metrics.bytesRead = io.source.bytesRead;
      const pageItems = (list.items ?? []) as T[];
      // A first (often only) page is taken as it is, no copy of a 50,000-item array;
      // being the source's array, it is copied before anything is added to it.
      if (items.length === 0) {
        items = pageItems;
        borrowed = true;
      } else {
        if (borrowed) items = items.slice();
        borrowed = false;
        for (const item of pageItems) items.push(item);
      }
      resourceVersion = list.metadata?.resourceVersion ?? resourceVersion;
      cont = list.metadata?.continue || undefined;
      if (!cont || io.stopped.aborted) break;
    }
  } catch (err) {
    return io.stopped.aborted ? { kind: 'stopped' } : { kind: 'failed', err };
  }
  if (io.stopped.aborted) return { kind: 'stopped' };
  io.metrics.listedObjects += items.length;
  return { kind: 'listed', items, resourceVersion };
}

/** How one watch request ended. */
export type WatchStartOutcome =
  | { kind: 'opened'; stream: WatchStream }
  | { kind: 'failed'; err: unknown }
  | { kind: 'stopped' };

/** The watch request's parameters that vary; the rest come from the watcher's options. */
export interface WatchRequest {
  resourceVersion: string;
  /** A streaming list (sendInitialEvents) instead of a watch from `resourceVersion`. */
  initial: boolean;
  bookmarks: boolean;
  timeoutMs: number;
}

/** Sends one watch request. */
export async function openWatch(io: WatchIoContext, req: WatchRequest): Promise<WatchStartOutcome> {
  try {
    const stream = await withDeadline(io, 'watch', (signal) =>
      io.source.watch({
        resourceVersion: req.initial ? req.resourceVersion || undefined : req.resourceVersion,
        resourceVersionMatch: req.initial ? 'NotOlderThan' : undefined,
        sendInitialEvents: req.initial ? true : undefined,
        allowWatchBookmarks: req.initial || req.bookmarks,
        timeoutSeconds: Math.max(1, Math.floor(req.timeoutMs / 1000)),
        signal,
        ...(io.lazyDecode ? { lazyDecode: true } : {}),
      }),
    );
    io.metrics.watchesStarted++;
    return { kind: 'opened', stream };
  } catch (err) {
    return io.stopped.aborted ? { kind: 'stopped' } : { kind: 'failed', err };
  }
}

/** How one read of an open stream went: events arrived, or the stream ended, and how. */
export type ReadOutcome =
  | { kind: 'events'; events: WatchEvent[] }
  /** The server ended the stream (its timeout, or a clean close). */
  | { kind: 'closed' }
  /** Nothing arrived within the idle timeout. */
  | { kind: 'idle' }
  /** The stream broke: a reset, an EOF before the final chunk, an undecodable line. */
  | { kind: 'cut'; err: unknown }
  | { kind: 'stopped' };

/**
 * Waits for the next event of an open stream and takes every further event
 * already decoded with it: a chunk's events in one step keeps the idle timer
 * and abort listener to one per read instead of one per event.
 */
export async function readEvents(
  io: WatchIoContext,
  stream: WatchStream,
  idleMs: number,
): Promise<ReadOutcome> {
  // Events already decoded need no timer, no abort listener and no promise.
  let first = stream.poll?.();
  if (first === undefined) {
    try {
      const waiter = readWaiter(io);
      // One promise per wait where the stream can wake it; what arrived is then
      // polled. Nothing to take (a piece of a line, or the end): wait on `next()`.
      if (stream.onReadable && stream.poll) {
        await waiter.readable(stream as Required<Pick<WatchStream, 'onReadable'>>, idleMs);
        first = stream.poll();
      }
      first ??= await waiter.wait(stream.next(), idleMs);
    } catch (err) {
      stream.close();
      if (io.stopped.aborted) return { kind: 'stopped' };
      return err === IDLE ? { kind: 'idle' } : { kind: 'cut', err };
    }
  }
  if (first === undefined) {
    stream.close();
    return { kind: 'closed' };
  }
  io.metrics.lastEventAt = io.clock.now();
  io.metrics.bytesRead = io.source.bytesRead;
  const events = [first];
  for (let e = stream.poll?.(); e !== undefined; e = stream.poll?.()) events.push(e);
  const counts = io.metrics.events;
  for (const e of events) {
    counts[e.type] = (counts[e.type] ?? 0) + 1;
    if (e.type === 'BOOKMARK') io.metrics.bookmarks++;
  }
  return { kind: 'events', events };
}

/**
 * Runs one list or watch request under the request timeout: a request sent
 * on a dead connection (say a pooled keep-alive socket whose peer vanished)
 * is never answered, and nothing else would ever end it. The signal given
 * to `call` aborts on the deadline or when the watcher stops; once `call`
 * settles the deadline is off (an open stream has the idle timeout).
 */
async function withDeadline<R>(
  io: WatchIoContext,
  what: string,
  call: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const ms = io.requestTimeoutMs;
  const request = new AbortController();
  const onStop = () => request.abort(io.stopped.reason);
  if (io.stopped.aborted) onStop();
  else io.stopped.addEventListener('abort', onStop, { once: true });
  const timer = io.clock.setTimeout(() => {
    const where = io.source.url ? ` ${io.source.url}` : '';
    request.abort(new TransportError(`${what}${where}: no answer within ${ms} ms`, 'ETIMEDOUT'));
  }, ms);
  try {
    return await call(request.signal);
  } finally {
    timer.cancel();
    io.stopped.removeEventListener('abort', onStop);
  }
}

const IDLE = Symbol('idle');

/** A read waiting on its stream: failed with IDLE once the clock passes `deadline`. */
interface PendingRead {
  reject: (err: unknown) => void;
  deadline: number;
}

/**
 * The idle timeout and the stop signal of one watcher's stream reads. A
 * busy stream is read thousands of times a second, each read a short wait
 * for the next chunk: instead of a timer and an abort listener per read,
 * the watcher keeps one listener for its life and one timer that is only
 * re-armed when it fires (each read just records its deadline), or when a
 * read wants an earlier deadline than the armed one.
 */
class ReadWaiter {
  private readonly io: WatchIoContext;
  /** The read in flight: it fails with IDLE once the clock passes `deadline`. */
  private pending: PendingRead | undefined;
  private timer: TimerHandle | undefined;
  private timerAt = 0;

  constructor(io: WatchIoContext) {
    this.io = io;
    io.stopped.addEventListener('abort', () => this.onStop(), { once: true });
  }

  /** `p`, unless `ms` pass first (rejects with IDLE) or the watcher stops (rejects). */
  wait<R>(p: Promise<R>, ms: number): Promise<R> {
    if (this.io.stopped.aborted) return Promise.reject(new Error('aborted'));
    return new Promise<R>((resolve, reject) => {
      const read = this.begin(reject, ms);
      p.then(
        (v) => {
          if (this.settle(read)) resolve(v);
        },
        (e) => {
          if (this.settle(read)) reject(e);
        },
      );
    });
  }

  /**
   * Resolves when `stream` wakes it, unless `ms` pass first (rejects with
   * IDLE) or the watcher stops (rejects): {@link ReadWaiter.wait} with the
   * stream's wake as the promise's own resolve, no promise of the stream's.
   */
  readable(stream: Required<Pick<WatchStream, 'onReadable'>>, ms: number): Promise<void> {
    if (this.io.stopped.aborted) return Promise.reject(new Error('aborted'));
    return new Promise<void>((resolve, reject) => {
      const read = this.begin(reject, ms);
      stream.onReadable(() => {
        if (this.settle(read)) resolve();
      });
    });
  }

  /** Makes `reject` the read in flight, failing with IDLE `ms` from now. */
  private begin(reject: (err: unknown) => void, ms: number): PendingRead {
    const read = { reject, deadline: this.io.clock.now() + ms };
    this.pending = read;
    this.arm(read.deadline);
    return read;
  }

  /** Whether `read` is still the one in flight (not timed out or stopped); it no longer is after this. */
  private settle(read: PendingRead): boolean {
    if (this.pending !== read) return false;
    this.pending = undefined;
    return true;
  }

  private arm(deadline: number): void {
    if (this.timer && this.timerAt <= deadline) return;
    this.timer?.cancel();
    this.timerAt = deadline;
    this.timer = this.io.clock.setTimeout(() => this.onTimer(), deadline - this.io.clock.now());
  }

  private onTimer(): void {
    this.timer = undefined;
    const read = this.pending;
    if (!read) return;
    if (this.io.clock.now() < read.deadline) {
      this.arm(read.deadline);
      return;
    }
    this.pending = undefined;
    read.reject(IDLE);
  }

  private onStop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const read = this.pending;
    this.pending = undefined;
    read?.reject(new Error('aborted'));
  }
}

/** One waiter per watcher (its I/O context), made on its first read. */
const waiters = new WeakMap<WatchIoContext, ReadWaiter>();

function readWaiter(io: WatchIoContext): ReadWaiter {
  let waiter = waiters.get(io);
  if (!waiter) {
    waiter = new ReadWaiter(io);
    waiters.set(io, waiter);
  }
  return waiter;
}
