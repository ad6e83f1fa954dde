/**
 * The watcher's state and the outcomes of its I/O: what restart.ts's
 * `decide` reads and returns. Plain data; the watcher (watcher.ts) holds one
 * {@link WatcherState} and replaces it with each transition's `next`.
 */
import type { KubeObject, WatchEvent } from '../../protocol/events.js';
import type { BackoffOptions } from './backoff.js';
import type { ListParams, WatchStream } from './listwatch.js';
import type { ListCause, WatchEndCause } from './metrics.js';
import type { InitialState, WatcherEvent, WatcherFailure } from './watcher-types.js';

/**
 * Where the watcher is:
 * - Start: nothing yet; the initial state (a checkpoint), if any, is looked up.
 * - Empty: nothing to watch from: list (in stream mode, open a streaming list) with `relist`;
 *   `full`: one unpaginated list, after a continue token expired.
 * - InitListed: watch from the state's resourceVersion; `resumed` unless a list just gave it.
 * - Watching: a stream opened `from` a resourceVersion; `initial` while a streaming list's
 *   initial state is arriving; `events` received so far.
 */
export type Phase =
  | { kind: 'Start' }
  | { kind: 'Empty'; cause: ListCause; relist: ListParams; full?: boolean }
  | { kind: 'InitListed'; resumed: boolean }
  | {
      kind: 'Watching';
      stream: WatchStream;
      from: string;
      startedAt: number;
      timeoutMs: number;
      events: number;
      initial: boolean;
    };

/** The watcher's whole state: its phase, and what outlives a phase. */
export interface WatcherState {
  phase: Phase;
  /**
   * The last resourceVersion received (lists, events, bookmarks; not a streaming list's initial
   * objects, which come in no order); "" before any.
   */
  resourceVersion: string;
  /** Initial states by streaming list (KEP-3157); false once the server refused one. */
  streamMode: boolean;
  /** Failures backed off since the backoff last started over (backoff.ts `nextAttempt`). */
  attempt: number;
  /** Clock time of the last of them. */
  lastFailureAt: number;
}

/** What the I/O of a phase did. */
export type Outcome =
  /** Start: the initial state to begin from (undefined: none, list). */
  | { kind: 'initialState'; given: InitialState | undefined }
  | { kind: 'initialStateFailed'; err: unknown }
  /** Empty: the list, all its pages. */
  | { kind: 'listed'; items: KubeObject[]; resourceVersion: string }
  | { kind: 'listFailed'; err: unknown }
  /** Empty: a later page's continue token expired (410). */
  | { kind: 'continueExpired'; err: unknown }
  /** Empty (a streaming list) or InitListed: the watch request. */
  | { kind: 'watchOpened'; stream: WatchStream; timeoutMs: number }
  | { kind: 'watchFailed'; err: unknown }
  /** Watching: events arrived (those of one chunk). */
  | { kind: 'events'; events: WatchEvent[] }
  /** Watching: the server ended the stream (its timeout, or a clean close). */
  | { kind: 'closed' }
  /** Watching: nothing arrived for `idleMs`. */
  | { kind: 'idle'; idleMs: number }
  /** Watching: the stream broke (a reset, an EOF before the final chunk, an undecodable line). */
  | { kind: 'cut'; err: unknown };

/** The moment of an outcome, and the watcher's fixed settings. */
export interface RestartEnv {
  /** Clock time of the outcome (ms). */
  now: number;
  /** A draw in [0, 1) for the backoff's jitter. */
  random: number;
  backoff: Required<BackoffOptions>;
  /** A watch that ends sooner than this with no events counts as an error. */
  minWatchMs: number;
}

/** What a transition adds to the watcher's metrics (metrics.ts). */
export interface Counted {
  list?: ListCause;
  watchEnd?: WatchEndCause;
  resume?: boolean;
  error?: boolean;
}

/** A log line about a restart that is not a failure (a stream cut or silent, resumed). */
export interface Note {
  level: 'info' | 'warn';
  msg: string;
  fields: Record<string, unknown>;
}

/** One transition: the next state, the wait before its I/O, the events to hand out, what to count and say. */
export interface Transition {
  next: WatcherState;
  /** Wait this long (ms) before the next state's I/O: the backoff, or 0. */
  delayMs: number;
  events: WatcherEvent[];
  counted: Counted;
  /** A failure to report (logger.warn, onError); `counted.error` is set with it. */
  failure?: WatcherFailure;
  note?: Note;
}

/** The state a watcher starts in. */
export function startState(streamMode: boolean): WatcherState {
  return {
    phase: { kind: 'Start' },
    resourceVersion: '',
    streamMode,
    attempt: 0,
    lastFailureAt: Number.NEGATIVE_INFINITY,
  };
}

/**
 * The resourceVersion an Empty state's list or streaming list asks for: a
 * streaming list does not take "0" (the cache's any-version read), so "".
 */
export function requestedResourceVersion(state: WatcherState): string {
  const rv = state.phase.kind === 'Empty' ? (state.phase.relist.resourceVersion ?? '') : '';
  return state.streamMode && rv === '0' ? '' : rv;
}
