import type { IncomingMessage } from 'node:http';
import type { KubeList, KubeObject, WatchEvent } from '../protocol/events.js';
import { JsonLinesDecoder } from '../protocol/jsonlines.js';
import { cacheMeta, decodeListLazily, decodeWatchLineLazily } from './lazy-decode.js';
import type { ResourcePath } from './resources.js';
import { type Transport, TransportError } from './transport.js';

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

/** List and watch one resource (with its namespace and selectors) over HTTP. */
export class HttpListWatch implements ListWatchSource {
  bytesRead = 0;
  private readonly transport: Transport;
  private readonly resource: ResourcePath;
  private readonly labelSelector: string | undefined;
  private readonly fieldSelector: string | undefined;

  constructor(
    transport: Transport,
    resource: ResourcePath,
    selectors: { labelSelector?: string; fieldSelector?: string } = {},
  ) {
    this.transport = transport;
    this.resource = resource;
    this.labelSelector = selectors.labelSelector || undefined;
    this.fieldSelector = selectors.fieldSelector || undefined;
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
      signal: params.signal,
    });
    this.bytesRead += body.length;
    if (params.lazyDecode) return decodeListLazily(body);
    return JSON.parse(body.toString('utf8')) as KubeList;
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

/** Turns a chunked JSON-lines HTTP answer into a pull-based event stream. */
export class ResponseWatchStream implements WatchStream {
  private readonly res: IncomingMessage;
  private readonly iterator: AsyncIterator<Buffer>;
  private readonly decoder: JsonLinesDecoder;
  /** Events decoded from the last chunk; `taken` of them are handed out. */
  private pending: WatchEvent[] = [];
  private taken = 0;
  private readonly onBytes: (n: number) => void;
  private done = false;

  /** `lazyDecode`: decode event objects lazily (see lazy-decode.ts). */
  constructor(res: IncomingMessage, onBytes: (n: number) => void, lazyDecode = false) {
    this.res = res;
    this.onBytes = onBytes;
    this.decoder = new JsonLinesDecoder(lazyDecode ? { decodeLine: decodeWatchLineLazily } : {});
    this.iterator = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  async next(): Promise<WatchEvent | undefined> {
    for (;;) {
      const queued = this.poll();
      if (queued) return queued;
      if (this.done) return undefined;
      let chunk: IteratorResult<Buffer>;
      try {
        chunk = await this.iterator.next();
      } catch (err) {
        this.done = true;
        const e = err as NodeJS.ErrnoException;
        throw new TransportError(`watch stream broke: ${e.message}`, e.code ?? 'ECONNRESET', { cause: err });
      }
      if (chunk.done) {
        this.done = true;
        // A stream that stops without its final chunk was cut, not ended.
        if (!this.res.complete) throw new TransportError('watch stream cut mid-flight', 'UNEXPECTED_EOF');
        this.pending = this.decoder.end() as WatchEvent[];
        this.taken = 0;
        continue;
      }
      this.onBytes(chunk.value.length);
      this.pending = this.decoder.push(chunk.value) as WatchEvent[];
      this.taken = 0;
    }
  }

  poll(): WatchEvent | undefined {
    if (this.taken < this.pending.length) return this.pending[this.taken++];
    return undefined;
  }

  close(): void {
    this.done = true;
    this.res.destroy();
  }
}

/** The resourceVersion an object or bookmark carries. */
export function resourceVersionOf(object: KubeObject | undefined): string | undefined {
  return object && cacheMeta(object)?.resourceVersion;
}
