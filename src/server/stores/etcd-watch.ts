import type { Etcd3, IEvent, IWatchResponse } from 'etcd3';
import { StoreError, type StoreEvent, type StoreWatch } from './types.js';

/** The raw gRPC watch stream, as far as it is used here. */
interface WatchStream {
  on(event: 'data', listener: (res: IWatchResponse) => void): this;
  on(event: 'error', listener: (err: Error) => void): this;
  on(event: 'end', listener: () => void): this;
  write(req: unknown): boolean;
  cancel(): void;
  end(): void;
}

/** Options of {@link EtcdPrefixWatch}. */
export interface EtcdPrefixWatchOptions {
  client: Etcd3;
  /** First key of the watched range (the prefix) ... */
  key: Buffer;
  /** ... and the key after its end. */
  rangeEnd: Buffer;
  /** Turns an etcd key back into a store key (drops the prefix). */
  storeKey: (key: Buffer) => string;
  afterRevision: number;
  onEvents: (events: StoreEvent[]) => void;
  onError: (err: Error) => void;
  log: (message: string) => void;
}

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 2_000;

/**
 * One etcd watch over the whole prefix, with previous values, delivering
 * events in revision order. It runs on the raw gRPC stream rather than the
 * etcd3 package's Watcher: that one resumes after a reconnect from the last
 * response header's revision, which etcd may send ahead of events still to
 * come (a catching-up watcher gets batches stamped with the current
 * revision), so a reconnect there can skip events. Here the resume point is
 * the last event's revision + 1, as in etcd's Go client.
 *
 * Progress notifications are not asked for: etcd 3.4 may send them for a
 * watcher that has not caught up yet. A broken stream (a member died) is
 * resumed on another member after a short backoff; only a compacted resume
 * point, an update or delete whose previous value was compacted before etcd
 * sent it, or etcd cancelling the watch, reaches `onError`.
 */
export class EtcdPrefixWatch implements StoreWatch {
  private readonly opts: EtcdPrefixWatchOptions;
  /** The next revision to ask for when (re)connecting. */
  private nextRevision: number;
  private stream: WatchStream | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;

  constructor(opts: EtcdPrefixWatchOptions) {
    this.opts = opts;
    this.nextRevision = opts.afterRevision + 1;
    this.connect();
  }

  /** Stops watching; no callback runs after this. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.drop();
  }

  private connect(): void {
    this.retryTimer = undefined;
    if (this.closed) return;
    (this.opts.client.watchClient.watch() as Promise<unknown>).then(
      (s) => {
        const stream = s as WatchStream;
        if (this.closed) {
          stream.on('error', () => {});
          stream.cancel();
          return;
        }
        this.stream = stream;
        stream.on('data', (res) => this.onResponse(stream, res));
        stream.on('error', (err) => this.onBroken(stream, err));
        stream.on('end', () => this.onBroken(stream, new Error('the watch stream ended')));
        stream.write({
          create_request: {
            key: this.opts.key,
            range_end: this.opts.rangeEnd,
            start_revision: this.nextRevision,
            prev_kv: true,
          },
        });
      },
      (err: Error) => this.retry(`cannot open a watch stream: ${err.message}`),
    );
  }

  private onResponse(stream: WatchStream, res: IWatchResponse): void {
    if (stream !== this.stream || this.closed) return;
    if (res.canceled) {
      const compacted = Number(res.compact_revision);
      this.fail(
        compacted > 0
          ? new StoreError(
              'compacted',
              `etcd watch from revision ${this.nextRevision}: required revision has been compacted (${compacted})`,
              compacted,
            )
          : new StoreError(
              'unavailable',
              `etcd cancelled the watch: ${res.cancel_reason || 'no reason given'}`,
            ),
      );
      return;
    }
    // A healthy response: the next failure starts its backoff afresh.
    this.retryMs = FIRST_RETRY_MS;
    if (res.events.length === 0) return;
    const events = res.events.map((ev) => this.toStoreEvent(ev));
    // etcd reads an event's previous value at its revision - 1 when it sends it, and leaves
    // it out if that revision is compacted by then (a watch still catching up). A delete
    // without it cannot reach the caches (they would keep the object for good), nor can a
    // modification: as kube-apiserver's etcd3 watcher (storage/etcd3/event.go, parseEvent),
    // end the watch so that the caches are filled again from a fresh list.
    const blind = events.find(
      (ev) => ev.prevValue === undefined && !(ev.type === 'put' && ev.createRevision === ev.revision),
    );
    if (blind) {
      this.fail(
        new StoreError(
          'compacted',
          `etcd watch: ${blind.type} of ${blind.key} at revision ${blind.revision} came without its previous value (compacted meanwhile)`,
          blind.revision,
        ),
      );
      return;
    }
    this.nextRevision = events[events.length - 1].revision + 1;
    try {
      this.opts.onEvents(events);
    } catch (err) {
      // The consumer's bug must not look like a broken stream (which would replay events).
      this.opts.log(`store watch consumer failed: ${(err as Error).message}`);
    }
  }

  private toStoreEvent(ev: IEvent): StoreEvent {
    const kv = ev.kv;
    const prev = ev.prev_kv && ev.prev_kv.key?.length > 0 ? ev.prev_kv.value.toString('utf8') : undefined;
    const revision = Number(kv.mod_revision);
    const key = this.opts.storeKey(kv.key);
    if (String(ev.type) === 'Delete') return { type: 'delete', key, revision, prevValue: prev };
    return {
      type: 'put',
      key,
      revision,
      value: kv.value.toString('utf8'),
      prevValue: prev,
      createRevision: Number(kv.create_revision),
    };
  }

  private onBroken(stream: WatchStream, err: Error): void {
    if (stream !== this.stream || this.closed) return;
    this.drop();
    this.retry(`watch stream broke (${err.message}); resuming from revision ${this.nextRevision}`);
  }

  private retry(why: string): void {
    if (this.closed || this.retryTimer) return;
    this.opts.log(why);
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private fail(err: Error): void {
    this.close();
    this.opts.onError(err);
  }

  private drop(): void {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream) return;
    // Cancelling makes grpc emit a CANCELLED error: expected, and ignored (stream !== this.stream).
    stream.on('error', () => {});
    stream.cancel();
  }
}
