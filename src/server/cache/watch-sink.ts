import type { ServerResponse } from 'node:http';
import type { WatchSink } from './watcher.js';

/*
 * Writing to a socket is the costliest part of fan-out: each `res.write()` of
 * a chunked response goes through the HTTP layer (a chunk header, the data, a
 * CRLF) and ends in its own system call. A watcher often receives several
 * lines in one turn of the event loop (a saturated writer's updates land
 * together; the initial state is many ADDED lines; a bookmark can follow an
 * event), so the lines are gathered per watcher and written as one chunk once
 * the turn's I/O callbacks are done (setImmediate): one write per watcher per
 * turn instead of one per line. Lines are serialized once per event and format
 * before they get here (CacheEvent.line), so gathering costs a copy at most.
 *
 * What it saves under a saturated writer (lines per write, and server CPU per
 * write with and without it) is measured by `npm run bench:server`
 * (bench/server-fanout.ts). In the committed run over plain HTTP and TLS
 * (bench/results/server-fanout-transport.json, 16 writers, 6.5-6.6 lines per
 * write) CPU per write on/off was 0.94x and 0.92x over HTTP at 100 and 1,000
 * watchers, 0.89x and 1.03x over TLS (1.06x in a second run at 1,000: over TLS with
 * many watchers it does not save), and saturated writes/s 1.02-1.17x.
 *
 * Backpressure is unchanged: `bufferedBytes` counts the gathered bytes too,
 * so a slow watcher is closed after the same budget and bookmarks are dropped
 * at the same fill level as when every line was written at once.
 */

/** What a {@link WatchWriter} counts: kept in the server's stats. */
export interface WatchWriteCounts {
  /** Watch lines handed to sinks. */
  watchLinesWritten: number;
  /** Response writes made of them: lines per write is the coalescing factor. */
  watchWrites: number;
}

/**
 * The watch responses of one server: opens their sinks, gathers each sink's
 * lines of one event-loop turn and writes them together. Each server owns
 * one, so two servers in one process share neither counters nor settings.
 */
export class WatchWriter {
  /**
   * Gather a turn's lines into one write (default). Off, each line is its own
   * write: the fan-out benchmark alternates it between rounds of one run.
   */
  coalescing: boolean;
  readonly counts: WatchWriteCounts;
  /** Sinks holding lines, flushed together after the current turn's I/O. */
  private readonly dirty = new Set<CoalescingSink>();
  private flushScheduled = false;
  /** Sinks holding lines (or their end) while stalled. */
  private readonly held = new Set<CoalescingSink>();
  private stalledNow = false;

  constructor(counts: WatchWriteCounts, coalescing = true) {
    this.counts = counts;
    this.coalescing = coalescing;
  }

  /**
   * Starts a watch response (200, chunked, headers flushed) in `contentType` and returns the sink
   * its watcher writes to.
   */
  open(res: ServerResponse, contentType = 'application/json'): WatchSink {
    res.writeHead(200, {
      'Content-Type': contentType,
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    res.flushHeaders();
    return new CoalescingSink(res, this);
  }

  /** True while {@link stall} holds every stream's lines. */
  get stalled(): boolean {
    return this.stalledNow;
  }

  /**
   * Holds every line of every watch response, open or opened meanwhile, until
   * {@link resume}: no event, no bookmark, no end reaches a client, and nothing is lost.
   * Held lines count in `bufferedBytes`, so the watcher's budget still applies: a stalled
   * watcher that gathers more than `maxWatcherBufferBytes` is closed as too slow (its
   * connection cut, the held lines dropped), as kube-apiserver's cacher closes a watcher whose
   * buffer stays full (k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go `add`: "Forcing
   * watcher close due to unresponsiveness"); its client resumes from the last resourceVersion
   * it read. Bookmarks
   * past half the budget are dropped, never held (watcher.ts `sendBookmark`).
   */
  stall(): void {
    this.stalledNow = true;
  }

  /** Lets held lines go, in the order they were written, and every held end after them. */
  resume(): void {
    if (!this.stalledNow) return;
    this.stalledNow = false;
    const held = [...this.held];
    this.held.clear();
    for (const sink of held) sink.release();
  }

  /** Keeps a sink's lines until {@link resume}. */
  hold(sink: CoalescingSink): void {
    this.held.add(sink);
  }

  /** Marks a sink as holding lines; the first one of a turn schedules the flush. */
  markDirty(sink: CoalescingSink): void {
    if (this.stalledNow) {
      this.held.add(sink);
      return;
    }
    this.dirty.add(sink);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushAll());
  }

  forget(sink: CoalescingSink): void {
    this.dirty.delete(sink);
    this.held.delete(sink);
  }

  private flushAll(): void {
    this.flushScheduled = false;
    // A flush never adds to `dirty` (writing to a response is synchronous), so one pass empties it.
    for (const sink of this.dirty) sink.flush();
    this.dirty.clear();
  }
}

class CoalescingSink implements WatchSink {
  private readonly res: ServerResponse;
  private readonly writer: WatchWriter;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The watch ended while its writer was stalled: end once the held lines are out. */
  private endHeld = false;

  constructor(res: ServerResponse, writer: WatchWriter) {
    this.res = res;
    this.writer = writer;
  }

  write(chunk: Buffer): void {
    if (!this.writable()) return;
    this.writer.counts.watchLinesWritten++;
    if (this.writer.stalled) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      this.writer.hold(this);
      return;
    }
    if (!this.writer.coalescing) {
      // Off: each line is its own write (after any still gathered, to keep the order).
      this.flush();
      this.writer.counts.watchWrites++;
      this.res.write(chunk);
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pending.length === 1) this.writer.markDirty(this);
  }

  get bufferedBytes(): number {
    return this.res.writableLength + this.pendingBytes;
  }

  /** Hands the gathered lines to the response as one chunk. */
  flush(): void {
    if (this.pending.length === 0 || this.writer.stalled) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.writable()) {
      this.writer.counts.watchWrites++;
      this.res.write(data);
    }
  }

  /** After a stall: the held lines go out, then the held end. */
  release(): void {
    this.flush();
    if (this.endHeld) this.end();
  }

  end(): void {
    if (this.writer.stalled) {
      this.endHeld = true;
      this.writer.hold(this);
      return;
    }
    // What the client was promised goes before the end of the stream (an ERROR event, the last lines).
    this.flush();
    this.writer.forget(this);
    if (!this.res.writableEnded) this.res.end();
  }

  destroy(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.writer.forget(this);
    this.res.destroy();
    this.res.socket?.destroy();
  }

  private writable(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }
}
