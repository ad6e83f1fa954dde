/**
 * The storage interface under the API server: a multi-version key-value store
 * with one global revision counter, shaped after etcd so that an etcd-backed
 * implementation fits it unchanged. Revisions are resourceVersions.
 *
 * Nothing above this interface may assume the store lives in this process:
 * every call is async, and changes reach the watch cache only through
 * {@link Store.watch}, in revision order, exactly as an etcd watch delivers them.
 */

/** One stored version of a key. `value` is the object as JSON, without resourceVersion. */
export interface StoreKV {
  key: string;
  value: string;
  /** Revision of the write that produced this value (etcd mod_revision): the object's resourceVersion. */
  modRevision: number;
  /** Revision at which the key was created (etcd create_revision). */
  createRevision: number;
}

/** One change, as a store watch delivers it. */
export interface StoreEvent {
  type: 'put' | 'delete';
  key: string;
  /** The revision of this change. */
  revision: number;
  /** The new value (put) ... */
  value?: string;
  /** ... and the value before it (update and delete); absent for a create. */
  prevValue?: string;
  /** For a put: the key's create revision (equals `revision` for a create). */
  createRevision?: number;
}

/** Options of {@link Store.list}. */
export interface StoreListOptions {
  /** Read at this revision (0 or absent: the current one). Older than the compacted revision: `StoreError('compacted')`. */
  revision?: number;
  /** Start at this key (inclusive); keys are ordered bytewise. */
  startKey?: string;
  /** At most this many items (0 or absent: all). */
  limit?: number;
}

/** The answer of {@link Store.list}. */
export interface StoreListResult {
  items: StoreKV[];
  /** The revision the list was read at. */
  revision: number;
  /** True when keys remain after the last item returned. */
  more: boolean;
  /** How many keys remain after the last item, when the store knows cheaply. */
  remaining?: number;
}

/** A live subscription returned by {@link Store.watch}. */
export interface StoreWatch {
  close(): void;
}

/** Why a store call failed; the server maps each to a Kubernetes Status. */
export type StoreErrorCode =
  | 'exists'
  | 'not-found'
  | 'conflict'
  | 'compacted'
  | 'future'
  | 'too-large'
  | 'unavailable';

/** A typed storage failure. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** For `compacted`: the compacted revision; for `future`: the current one. */
  readonly revision?: number;

  constructor(code: StoreErrorCode, message: string, revision?: number) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
    this.revision = revision;
  }
}

/** The store behind the API server. */
export interface Store {
  /** `memory` or `etcd`, for logs and stats. */
  readonly name: string;
  /** The latest revision written. */
  currentRevision(): Promise<number>;
  /** The revision the store is compacted to: reads older than it fail. */
  compactedRevision(): Promise<number>;
  /** The value of `key` at `revision` (default: current); undefined when absent. */
  get(key: string, revision?: number): Promise<StoreKV | undefined>;
  /** Keys with `prefix`, in key order. */
  list(prefix: string, options?: StoreListOptions): Promise<StoreListResult>;
  /** Creates `key`; `exists` when it is there already. */
  create(key: string, value: string): Promise<StoreKV>;
  /**
   * Replaces `key`'s value if its current modRevision is `expectedModRevision`
   * (`conflict` otherwise, `not-found` when absent).
   */
  update(key: string, value: string, expectedModRevision: number): Promise<StoreKV>;
  /**
   * Deletes `key` (if `expectedModRevision` is given, only at that revision).
   * Resolves to the deleted value with `modRevision` set to the deletion's revision.
   */
  delete(key: string, expectedModRevision?: number): Promise<StoreKV>;
  /**
   * Delivers every change after `afterRevision`, over all keys, in revision order.
   * `onError` reports a broken watch (e.g. compacted past `afterRevision`); the
   * subscription is then closed.
   */
  watch(
    afterRevision: number,
    onEvents: (events: StoreEvent[]) => void,
    onError: (err: Error) => void,
  ): StoreWatch;
  /** Drops every version older than `revision` that a later version of the same key supersedes. */
  compact(revision: number): Promise<void>;
  /** Releases the store's resources. */
  close(): Promise<void>;
}
