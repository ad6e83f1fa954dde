import type { IncomingMessage } from 'node:http';
import type { KubeList, KubeObject, WatchEvent } from '../../protocol/events.js';
import { JsonLinesDecoder } from '../../protocol/jsonlines.js';
import { type Transport, TransportError } from '../http/transport.js';
import { cacheMeta, decodeListLazily, decodeWatchLineLazily } from './lazy-decode.js';
import type { ResourcePath } from './resources.js';

/** Parameters of one list call. */
export interface ListParams {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit?: number;
  continue?: string;
  signal?: AbortSignal;
  /**
   * Decode items lazily: each keeps its JSON text and is parsed on its first
   * property read; only namespace, name and resourceVersion are read at once
   * (see lazy-decode.ts). Sources may ignore it.
   */
  lazyDecode?: boolean;
}

/** Parameters of one watch call. */
export interface WatchParams {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan';
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds: number;
  signal?: AbortSignal;
  /** Decode event objects lazily, as {@link ListParams.lazyDecode}. */
  lazyDecode?: boolean;
}

/** An open watch stream: events one by one, pulled (reading slowly slows the socket). */
export interface WatchStream {
  /** The next event, or undefined when the server ended the stream cleanly. Throws on a cut stream. */
  next(): Promise<WatchEvent | undefined>;
  /**
   * An event already received and decoded, without waiting; undefined when
   * none is ready (then call {@link WatchStream.next}). Optional: lets a
   * reader take a whole chunk's events in one step.
   */
  poll?(): WatchEvent | undefined;
  /**
   * Calls `wake` once, when something arrives or the stream ends (at once
   * when that has happened already); then {@link WatchStream.poll} takes
   * what arrived (a piece of a line may bring nothing yet) and
   * {@link WatchStream.next} tells the end. One waiter at a time. Optional,
   * with `poll`: lets a reader wait with one promise of its own.
   */
  onReadable?(wake: () => void): void;
  /** Abandons the stream (idempotent). */
  close(): void;
}

/**
 * What a watcher needs from the server. The HTTP implementation is
 * {@link HttpListWatch}; tests script their own to drive the state machine.
 */
export interface ListWatchSource {
  list(params: ListParams): Promise<KubeList>;
  watch(params: WatchParams): Promise<WatchStream>;
  /** Bytes read from the server so far (for metrics). */
  readonly bytesRead: number;
  /** Where the resource is listed (the server URL and collection path), for messages; optional. */
  readonly url?: string;
}

/** What an {@link HttpListWatch} lists and watches: selectors, and whether only metadata. */
export interface ListWatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Ask for metadata only, as client-go's metadata informers and kube-controller-manager's
   * garbage collector do: lists come as a PartialObjectMetadataList, watch events carry
   * PartialObjectMetadata objects (`kind`, `apiVersion: meta.k8s.io/v1`, the whole `metadata`).
   * The Accept header ends with plain JSON, so a server without the transformation sends whole
   * objects, whose `metadata` is the same.
   */
  metadataOnly?: boolean;
}

/** client-go metadata client's Accept for a list (JSON only: this client decodes no protobuf). */
export const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** client-go metadata client's Accept for a get or a watch: each event's object is a PartialObjectMetadata. */
export const METADATA_OBJECT_ACCEPT =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** List and watch one resource (with its namespace and selectors) over HTTP. */
export class HttpListWatch implements ListWatchSource {
  bytesRead = 0;
  private readonly transport: Transport;
  private readonly resource: ResourcePath;
  private readonly labelSelector: string | undefined;
  private readonly fieldSelector: string | undefined;
  private readonly metadataOnly: boolean;

  constructor(transport: Transport, resource: ResourcePath, opts: ListWatchOptions = {}) {
    this.transport = transport;
    this.resource = resource;
    this.labelSelector = opts.labelSelector || undefined;
    this.fieldSelector = opts.fieldSelector || undefined;
    this.metadataOnly = opts.metadataOnly === true;
  }

  get url(): string {
    return `${this.transport.server}${this.resource.collectionPath}`;
  }

  async list(params: ListParams): Promise<KubeList> {
    const { body } = await this.transport.request({
      path: this.resource.collectionPath,
      query: {
        labelSelector: this.labelSelector,
        fieldSelector: this.fieldSelector,
        resourceVersion: params.resourceVersion,
        resourceVersionMatch: params.resourceVersionMatch,
        limit: params.limit,
        continue: params.continue,
      },
      accept: this.metadataOnly ? METADATA_LIST_ACCEPT : undefined,
      signal: params.signal,
    });
    this.bytesRead += body.length;
    const list = params.lazyDecode ? decodeListLazily(body) : (JSON.parse(body.toString('utf8')) as KubeList);
    // An empty PartialObjectMetadataList comes with `items: null` (the Go list's nil slice).
    list.items ??= [];
    return list;
  }

  async watch(params: WatchParams): Promise<WatchStream> {
    // `resourceVersion` is sent even when "" is meant: the query builder drops empty values, which is "unset".
    const res = await this.transport.stream({
      path: this.resource.collectionPath,
      query: {
        watch: 'true',
        labelSelector: this.labelSelector,
        fieldSelector: this.fieldSelector,
        resourceVersion: params.resourceVersion,
        resourceVersionMatch: params.resourceVersionMatch,
        allowWatchBookmarks: params.allowWatchBookmarks ? 'true' : undefined,
        sendInitialEvents:
          params.sendInitialEvents === undefined ? undefined : String(params.sendInitialEvents),
        timeoutSeconds: params.timeoutSeconds,
      },
      accept: this.metadataOnly ? METADATA_OBJECT_ACCEPT : undefined,
      signal: params.signal,
    });
    return new ResponseWatchStream(
      res,
      (n) => {
        this.bytesRead += n;
      },
      params.lazyDecode,
    );
  }
}

/**
 * Bytes a stream holds undecoded before it pauses the socket: a reader that
 * falls behind (a slow async handler) stops the reads there, so the kernel's
 * TCP window, not this process's memory, absorbs the rest.
 */
const HIGH_WATER_BYTES = 256 * 1024;

/**
 * Turns a chunked JSON-lines HTTP answer into a pull-based event stream.
 *
 * The answer is read with 'data' events, not its async iterator (a promise
 * and a buffer join per read). Node's HTTP parser emits one 'data' per HTTP
 * chunk, and API servers write one event per chunk, so a socket read of 64
 * KB arrives as some 40 'data' events in one go: they are only collected,
 * and the reader, woken once, decodes them all at once (no join of the
 * chunks: each is decoded where it lies, one JSON.parse per line) and
 * takes every event with one `next()` and `poll()`s. Once {@link HIGH_WATER_BYTES} wait undecoded, the answer is
 * paused until the reader catches up.
 */
export class ResponseWatchStream implements WatchStream {
  private readonly res: IncomingMessage;
  private readonly decoder: JsonLinesDecoder;
  /** Chunks received, not yet decoded. */
  private raw: Buffer[] = [];
  private rawBytes = 0;
  /** Events decoded and not yet handed out: `queue[taken..]`. */
  private queue: WatchEvent[] = [];
  private taken = 0;
  private paused = false;
  /** Set once nothing more will arrive; `failure` (if any) is thrown after everything received is taken. */
  private ended = false;
  /** The answer ended cleanly and the decoder's last line is still to be flushed. */
  private flushPending = false;
  private failure: unknown;
  private closed = false;
  /** The reader waiting in `next()`, if any. */
  private wake: (() => void) | undefined;
  private readonly onBytes: (n: number) => void;

  /** `lazyDecode`: decode event objects lazily (see lazy-decode.ts). */
  constructor(res: IncomingMessage, onBytes: (n: number) => void, lazyDecode = false) {
    this.res = res;
    this.onBytes = onBytes;
    this.decoder = new JsonLinesDecoder(lazyDecode ? { decodeLine: decodeWatchLineLazily } : {});
    res.on('data', (chunk: Buffer) => this.onData(chunk));
    res.on('end', () => {
      // A stream that stops without its final chunk was cut, not ended.
      if (!res.complete) this.finish(new TransportError('watch stream cut mid-flight', 'UNEXPECTED_EOF'));
      else if (!this.ended) {
        this.flushPending = true;
        this.finish(undefined);
      }
    });
    res.on('error', (err: NodeJS.ErrnoException) =>
      this.finish(
        new TransportError(`watch stream broke: ${err.message}`, err.code ?? 'ECONNRESET', { cause: err }),
      ),
    );
    // Closed under us without 'end' or 'error' (the socket went away): cut, not ended.
    // Every stream closes, so the error (and its stack) is made only when it is one.
    res.on('close', () => {
      if (!this.ended) {
        this.finish(new TransportError('watch stream closed prematurely', 'ERR_STREAM_PREMATURE_CLOSE'));
      }
    });
  }

  async next(): Promise<WatchEvent | undefined> {
    for (;;) {
      const queued = this.poll();
      if (queued) return queued;
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  onReadable(wake: () => void): void {
    if (this.taken < this.queue.length || this.raw.length > 0 || this.flushPending || this.ended) wake();
    else this.wake = wake;
  }

  poll(): WatchEvent | undefined {
    for (;;) {
      if (this.taken < this.queue.length) return this.queue[this.taken++];
      if (this.raw.length > 0) this.decodeRaw();
      else if (this.flushPending) this.flush();
      else return undefined;
    }
  }

  close(): void {
    this.closed = true;
    this.finish(undefined);
    this.raw = [];
    this.res.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.ended) return;
    this.onBytes(chunk.length);
    this.raw.push(chunk);
    this.rawBytes += chunk.length;
    if (this.rawBytes >= HIGH_WATER_BYTES && !this.paused) {
      this.paused = true;
      this.res.pause();
    }
    this.wakeReader();
  }

  /** Decodes the oldest chunk received into the queue (a view of its socket read, no join). */
  private decodeRaw(): void {
    const chunk = this.raw.shift() as Buffer;
    this.rawBytes -= chunk.length;
    if (this.paused && !this.ended && this.rawBytes < HIGH_WATER_BYTES) {
      this.paused = false;
      this.res.resume();
    }
    const events: WatchEvent[] = [];
    this.setQueue(events);
    try {
      this.decoder.pushInto(chunk, events);
    } catch (err) {
      // An undecodable line: the events before it are handed out, then the stream fails.
      this.raw = [];
      this.rawBytes = 0;
      this.finish(err);
      this.res.destroy();
    }
  }

  /** The answer ended cleanly: the decoder's unterminated last line, if any. */
  private flush(): void {
    this.flushPending = false;
    try {
      this.setQueue(this.decoder.end() as WatchEvent[]);
    } catch (err) {
      this.failure = err;
    }
  }

  /** Called with the queue fully taken. */
  private setQueue(events: WatchEvent[]): void {
    this.queue = events;
    this.taken = 0;
  }

  /** Nothing more will arrive; a reader gets what was received, then `failure` (or the end). */
  private finish(failure: unknown): void {
    if (this.ended) return;
    this.ended = true;
    // After close(), the reader asked for it: nothing to report.
    if (!this.closed) this.failure = failure;
    this.wakeReader();
  }

  private wakeReader(): void {
    const wake = this.wake;
    if (wake) {
      this.wake = undefined;
      wake();
    }
  }
}

/** The resourceVersion an object or bookmark carries. */
export function resourceVersionOf(object: KubeObject | undefined): string | undefined {
  return object && cacheMeta(object)?.resourceVersion;
}
