/**
 * A list-watch source that counts what the study needs and the library's
 * metrics do not split out: the bytes moved by lists (relists, after the
 * initial sync), and the watch starts whose resourceVersion was already
 * older than the server's history window (each of which must cost a 410
 * and a relist when the watcher has no bookmark to resume from).
 */
import type { ListParams, ListWatchSource, WatchParams, WatchStream } from '../client/watch/listwatch.js';
import type { KubeList, WatchEvent } from '../protocol/events.js';

/** The counts of one {@link CountingSource}. */
export interface SourceCounts {
  /** Bytes of list answers. */
  listBytes: number;
  /** Watch starts from a resourceVersion older than the history window (client-side clock). */
  staleStarts: number;
  /** Watch starts from a resourceVersion (resumes and post-list watches). */
  watchStarts: number;
  /** Watches reopened after a clean end, and the ms from that end until the new stream was open. */
  reconnects: number;
  reconnectMs: number;
}

/** Wraps a source; the watcher on top sees no difference. */
export class CountingSource implements ListWatchSource {
  readonly counts: SourceCounts = {
    listBytes: 0,
    staleStarts: 0,
    watchStarts: 0,
    reconnects: 0,
    reconnectMs: 0,
  };
  private readonly inner: ListWatchSource;
  private readonly historyWindowMs: number;
  /** When the resourceVersion the watcher holds was last the server's latest (a list, an event, a bookmark). */
  private freshAt = 0;
  /** When the last stream ended cleanly (a timeout), until the next watch is open. */
  private endedAt: number | undefined;
  /** When the open stream opened; undefined between streams and once it has brought an ERROR. */
  private openedAt: number | undefined;
  /** The `openedAt` of a stream {@link hasWatched} last found holding. */
  private holdingSince: number | undefined;
  /** Latched by {@link hasWatched}. */
  private watched = false;

  constructor(inner: ListWatchSource, historyWindowMs: number) {
    this.inner = inner;
    this.historyWindowMs = historyWindowMs;
  }

  /**
   * Whether the watcher has been watching since it first listed. A watch from
   * a resourceVersion the history no longer holds opens too, and is answered
   * at once with an ERROR (410): a watcher whose list took longer than the
   * history window is relisting, not watching. So a stream counts once it has
   * been open `ms` (real) with no ERROR read from it, at two calls with a
   * turn of the event loop between them: an ERROR that had arrived by the
   * first call has been read by the second (so ask every watcher at every
   * poll). Once true, true for good: later 410s and relists are what a run
   * measures.
   */
  hasWatched(ms = 100): boolean {
    if (this.watched) return true;
    const opened = this.openedAt;
    const holding = opened !== undefined && performance.now() - opened >= ms;
    this.watched = holding && this.holdingSince === opened;
    this.holdingSince = holding ? opened : undefined;
    return this.watched;
  }

  get bytesRead(): number {
    return this.inner.bytesRead;
  }

  async list(params: ListParams): Promise<KubeList> {
    const before = this.inner.bytesRead;
    const page = await this.inner.list(params);
    this.counts.listBytes += this.inner.bytesRead - before;
    this.freshAt = performance.now();
    return page;
  }

  async watch(params: WatchParams): Promise<WatchStream> {
    this.counts.watchStarts++;
    // With steady churn the next write after any resourceVersion follows within
    // milliseconds, so a resourceVersion this old has events evicted after it: 410.
    if (params.resourceVersion && performance.now() - this.freshAt > this.historyWindowMs)
      this.counts.staleStarts++;
    const stream = await this.inner.watch(params);
    if (this.endedAt !== undefined) {
      // Time compression does not shrink this gap: the events written during it are
      // examined on every restart, bookmarks or not, and it is reported beside them.
      this.counts.reconnects++;
      this.counts.reconnectMs += performance.now() - this.endedAt;
      this.endedAt = undefined;
    }
    this.openedAt = performance.now();
    const seen = (e: WatchEvent | undefined) => {
      if (e?.type === 'ERROR') this.openedAt = undefined;
      else if (e) this.freshAt = performance.now();
      return e;
    };
    // One `then` per read, not an async function: every bookmark of 5,000 watchers passes here.
    const ended = (e: WatchEvent | undefined) => {
      if (e !== undefined) return seen(e);
      this.endedAt = performance.now();
      this.openedAt = undefined;
      return e;
    };
    return {
      next: () => stream.next().then(ended),
      // undefined from poll means "nothing buffered yet", not the end of the stream.
      poll: stream.poll ? () => seen(stream.poll?.()) : undefined,
      onReadable: stream.onReadable ? (wake) => stream.onReadable?.(wake) : undefined,
      close: () => {
        this.openedAt = undefined;
        stream.close();
      },
    };
  }
}
