/**
 * What a `Watcher` yields and how it is configured: the types its
 * users (the Informer, the checkpoint, the CLI) share, apart from the state
 * machine itself (watcher.ts).
 */

import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import type { BackoffOptions } from './backoff.js';
import type { ListCause } from './metrics.js';

/** Why an `init` began: a (re)list's cause, or `checkpoint` for a state given by `WatcherOptions.initialState`. */
export type InitCause = ListCause | 'checkpoint';

/**
 * A state to start from instead of listing (e.g. a saved checkpoint): its
 * objects and the resourceVersion they are current at.
 */
export interface InitialState<T extends KubeObject = KubeObject> {
  resourceVersion: string;
  objects: T[];
}

/** What a watcher yields. `init`..`initDone` bracket every (re)list; the rest are live changes. */
export type WatcherEvent<T extends KubeObject = KubeObject> =
  | { type: 'init'; cause: InitCause }
  | { type: 'initApply'; object: T }
  | { type: 'initDone'; resourceVersion: string }
  | { type: 'apply'; object: T }
  | { type: 'delete'; object: T }
  | { type: 'bookmark'; resourceVersion: string };

/** A pino-compatible logger (only the methods used). */
export interface Logger {
  debug?(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
  error?(obj: object, msg: string): void;
}

/** Options of {@link Watcher}; defaults are client-go's reflector's. */
export interface WatcherOptions {
  /** Ask for bookmarks (default true). */
  bookmarks?: boolean;
  /** How to get the initial state: paginated `list` (default) or streaming list (`stream`, falls back to list if refused). */
  initial?: 'list' | 'stream';
  /** List page size (500; 0 = no pagination). */
  pageSize?: number;
  /** Watch timeoutSeconds is random in [min, max) ms (default [300 s, 600 s)). */
  watchTimeoutMs?: [number, number];
  /** Backoff after failures (800 ms doubling to 30 s, jitter 1.0, reset after 2 min). */
  backoff?: BackoffOptions;
  /** A stream silent for longer than this is abandoned and resumed (default: its watch timeout + 5 s). */
  idleTimeoutMs?: number;
  /**
   * A list page or watch request not answered within this is abandoned and retried (default 60 s,
   * kube-apiserver's own limit for a list): one sent on a dead connection is never answered.
   */
  requestTimeoutMs?: number;
  /** The server's bookmark interval, if known: tightens the idle timeout to 3 intervals. */
  serverBookmarkIntervalMs?: number;
  /** A watch that ends sooner than this with no events counts as an error (1 s). */
  minWatchMs?: number;
  /**
   * Decode objects lazily (default false): keep each object's JSON text and
   * read only its namespace, name and resourceVersion until something reads
   * the object, which is then parsed once, transparently. Faster and smaller
   * when handlers read few objects; see lazy-decode.ts for the limits.
   */
  lazyDecode?: boolean;
  /**
   * Start from this state instead of a list (or from what the function,
   * given the watcher's stop signal, resolves to; undefined: list as usual).
   * It is yielded as `init` (cause `checkpoint`), `initApply`..., `initDone`,
   * then the watch resumes from its resourceVersion; a 410 relists with the
   * usual rules. Correctness never
   * depends on it: a stale resourceVersion only costs that relist.
   */
  initialState?: InitialState | ((signal: AbortSignal) => Promise<InitialState | undefined>);
  /** Ends the watcher. */
  signal?: AbortSignal;
  clock?: Clock;
  random?: () => number;
  logger?: Logger;
  /**
   * Called with every failure (after it is counted, before the retry), and
   * what the watcher does about it. `failure` is absent only for a failure
   * that is not the watcher's (an Informer's own loop).
   */
  onError?: (err: unknown, failure?: WatcherFailure) => void;
}

/** A failure and what the watcher does about it: `WatcherOptions.onError`'s second argument. */
export interface WatcherFailure {
  /** The error: a `StatusError` (the server's Status), a `TransportError`, or what the source threw. */
  error: unknown;
  /**
   * What failed, in a few words: `list failed`, `watch failed to start`,
   * `watch expired: relisting`, `watch ended with an error`, `watch stream broke`,
   * `initial state unavailable: listing`.
   */
  what: string;
  /** What the watcher does next. */
  next: WatcherNextAction;
  /** How long it waits before that (ms; 0 is at once): the backoff, at least the server's Retry-After. */
  delayMs: number;
}

/** The watcher's next request after a failure. */
export type WatcherNextAction =
  /** The request that failed, again (the same list, streaming list or watch). */
  | { action: 'retry'; request: 'list' | 'streamingList' | 'watch'; resourceVersion: string }
  /**
   * A (re)list, and why (`expired`, `tooLarge`: the resourceVersion was refused; `error`: a
   * streaming list broke before its end); `resourceVersion` "" is a consistent read.
   */
  | { action: 'list'; cause: ListCause; resourceVersion: string; streaming: boolean }
  /** A watch from the last resourceVersion, no list. */
  | { action: 'watch'; resourceVersion: string };
