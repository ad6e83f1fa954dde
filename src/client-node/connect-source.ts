/**
 * A list-watch source that tells when a client-node informer "connects".
 * client-node calls its `connect` callbacks each time it (re)starts: before
 * the list that opens a cycle, or before the watch when it resumes from its
 * resourceVersion. Here that is the first page of every list, every
 * streaming list, and every watch that is not the one right after a list:
 * each (re)watch calls them once.
 */

import type { ListParams, ListWatchSource, WatchParams, WatchStream } from '../client/watch/listwatch.js';
import type { KubeList } from '../protocol/events.js';

/** See the file comment. `onConnect` runs before the request is sent. */
export class ConnectingSource implements ListWatchSource {
  /** A list began the current cycle: its watch is part of the same connect. */
  private listed = false;

  constructor(
    private readonly inner: ListWatchSource,
    private readonly onConnect: () => void,
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

  watch(params: WatchParams): Promise<WatchStream> {
    if (this.listed && params.sendInitialEvents !== true) this.listed = false;
    else {
      this.listed = false;
      this.onConnect();
    }
    return this.inner.watch(params);
  }
}
