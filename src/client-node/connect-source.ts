/**
 * A list-watch source that tells when a client-node informer "connects".
 * client-node calls its `connect` callbacks each time it (re)starts: before
 * the list that opens a cycle, or before the watch when it resumes from its
 * resourceVersion. Here that is the first page of every list, every
 * streaming list, and every watch that is not the one right after a list:
 * each (re)watch calls them once.
 *
 * It also hands on the error of a watch stream that broke (a reset, an
 * unexpected EOF): the watcher resumes such a watch at once, as client-go
 * does, without counting it a failure, but a client-node user's `error`
 * callbacks expect to hear of it.
 */

import type { ListParams, ListWatchSource, WatchParams, WatchStream } from '../client/watch/listwatch.js';
import type { KubeList, WatchEvent } from '../protocol/events.js';

/** See the file comment. `onConnect` runs before the request is sent. */
export class ConnectingSource implements ListWatchSource {
  /** A list began the current cycle: its watch is part of the same connect. */
  private listed = false;

  constructor(
    private readonly inner: ListWatchSource,
    private readonly onConnect: () => void,
    private readonly onBroken: (err: unknown) => void,
  ) {}

  get bytesRead(): number {
    return this.inner.bytesRead;
  }

  get url(): string | undefined {
    return this.inner.url;
  }

  list(params: ListParams): Promise<KubeList> {
    if (params.continue === undefined || params.continue === '') {
      this.listed = true;
      this.onConnect();
    }
    return this.inner.list(params);
  }

  /** Whether the last watch request asked for a streaming list (sendInitialEvents). */
  lastWatchStreaming = false;

  watch(params: WatchParams): Promise<WatchStream> {
    this.lastWatchStreaming = params.sendInitialEvents === true;
    if (this.listed && params.sendInitialEvents !== true) this.listed = false;
    else {
      this.listed = false;
      this.onConnect();
    }
    return this.inner.watch(params).then((stream) => new ReportingStream(stream, this.onBroken));
  }
}

/** A watch stream that reports the error it breaks with (see the file comment); otherwise the stream itself. */
class ReportingStream implements WatchStream {
  readonly poll?: () => WatchEvent | undefined;
  readonly onReadable?: (wake: () => void) => void;

  constructor(
    private readonly inner: WatchStream,
    private readonly onBroken: (err: unknown) => void,
  ) {
    if (inner.poll) this.poll = inner.poll.bind(inner);
    if (inner.onReadable) this.onReadable = inner.onReadable.bind(inner);
  }

  next(): Promise<WatchEvent | undefined> {
    return this.inner.next().catch((err: unknown) => {
      this.onBroken(err);
      throw err;
    });
  }

  close(): void {
    this.inner.close();
  }
}
