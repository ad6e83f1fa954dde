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
 * Measured (`npm run bench:server`): 4.8 to 5.5 lines per write under a
 * saturated writer, yet server CPU per write within 7 % of writing each line:
 * Node already gathers one tick's writes to a socket into one system call, so
 * what this saves is the HTTP layer's per-chunk work and the packets.
 *
 * Backpressure is unchanged: `bufferedBytes` counts the gathered bytes too,
 * so a slow watcher is closed after the same budget and bookmarks are dropped
 * at the same fill level as when every line was written at once.
 */

let coalescing = true;

/** Watch lines handed to sinks and socket writes made of them, in this process, since it started. */
const counts = { lines: 0, writes: 0 };

/**
 * How many watch lines this process has written and in how many response
 * writes. Internal: the fan-out benchmark reports lines per write, the
 * coalescing factor itself, which machine load does not blur as it does CPU time.
 */
export function watchWriteCounts(): { lines: number; writes: number } {
  return { ...counts };
}

/**
 * Turns per-turn gathering of watch lines on or off, for every watch from its
 * next line on. Internal: the fan-out benchmark alternates it between rounds
 * of one run to measure what it saves.
 */
export function setWatchWriteCoalescing(on: boolean): void {
  coalescing = on;
}

/** Sinks holding lines, flushed together after the current turn's I/O. */
const dirty = new Set<CoalescingSink>();
let flushScheduled = false;

function flushAll(): void {
  flushScheduled = false;
  // A flush never adds to `dirty` (writing to a response is synchronous), so one pass empties it.
  for (const sink of dirty) sink.flush();
  dirty.clear();
}

class CoalescingSink implements WatchSink {
  private readonly res: ServerResponse;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(res: ServerResponse) {
    this.res = res;
  }

  write(chunk: Buffer): void {
    if (!this.writable()) return;
    counts.lines++;
    if (!coalescing) {
      // Off: each line is its own write (after any still gathered, to keep the order).
      this.flush();
      counts.writes++;
      this.res.write(chunk);
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pending.length === 1) {
      dirty.add(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    }
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
      counts.writes++;
      this.res.write(data);
    }
  }

  end(): void {
    // What the client was promised goes before the end of the stream (an ERROR event, the last lines).
    this.flush();
    dirty.delete(this);
    if (!this.res.writableEnded) this.res.end();
  }

  destroy(): void {
    this.pending = [];
    this.pendingBytes = 0;
    dirty.delete(this);
    this.res.destroy();
    this.res.socket?.destroy();
  }

  private writable(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }
}

/** Starts a watch response (200, chunked, headers flushed) and returns the sink its watcher writes to. */
export function openWatchSink(res: ServerResponse): WatchSink {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  return new CoalescingSink(res);
}
