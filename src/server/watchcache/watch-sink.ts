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
 * (bench/server-fanout.ts; bench/results/server-fanout.json).
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

  constructor(counts: WatchWriteCounts, coalescing = true) {
    this.counts = counts;
    this.coalescing = coalescing;
  }

  /** Starts a watch response (200, chunked, headers flushed) and returns the sink its watcher writes to. */
  open(res: ServerResponse): WatchSink {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    res.flushHeaders();
    return new CoalescingSink(res, this);
  }

  /** Marks a sink as holding lines; the first one of a turn schedules the flush. */
  markDirty(sink: CoalescingSink): void {
    this.dirty.add(sink);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushAll());
  }

  forget(sink: CoalescingSink): void {
    this.dirty.delete(sink);
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

  constructor(res: ServerResponse, writer: WatchWriter) {
    this.res = res;
    this.writer = writer;
  }

  write(chunk: Buffer): void {
    if (!this.writable()) return;
    this.writer.counts.watchLinesWritten++;
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
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.writable()) {
      this.writer.counts.watchWrites++;
      this.res.write(data);
    }
  }

  end(): void {
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
