/**
 * The watcher's restart table: one pure function, {@link decide}, from the
 * watcher's whole state and what its last request did (an {@link Outcome})
 * to the next state, the wait before it, the events to hand out and what to
 * count and report. No I/O, no clock, no randomness of its own: the moment
 * and a random draw come in {@link RestartEnv}. watcher.ts runs the I/O each
 * phase asks for and feeds the outcome here, so every place a watch can
 * restart is the one `switch` in {@link decide}, to read against client-go's
 * tools/cache/reflector.go. docs/client.md's restart table has a row per
 * situation, and test/client/watch/restart-table.test.ts a test row per table row.
 */
import { isInitialEventsEnd, type WatchEvent } from '../../protocol/events.js';
import { isExpired, isTooLargeResourceVersion, StatusError } from '../../protocol/status.js';
import { backoffDelay, nextAttempt } from './backoff.js';
import { cacheMeta } from './lazy-decode.js';
import type { ListParams } from './listwatch.js';
import type { ListCause, WatchEndCause } from './metrics.js';
import { describeError, isProbableEof, retryAfterMs } from './watch-errors.js';
import {
  type Counted,
  type Note,
  type Outcome,
  type Phase,
  type RestartEnv,
  requestedResourceVersion,
  type Transition,
  type WatcherState,
} from './watcher-state.js';
import type { WatcherEvent, WatcherNextAction } from './watcher-types.js';

/** The first list reads "0" (the server's cache), as client-go's `Reflector.relistResourceVersion` does. */
const FIRST_LIST: Phase = { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } };
const NONE: WatcherEvent[] = [];

/** The restart table: what follows `outcome` in `state`. */
export function decide(state: WatcherState, outcome: Outcome, env: RestartEnv): Transition {
  const { phase } = state;
  switch (outcome.kind) {
    case 'initialState': {
      const given = outcome.given;
      if (!given) return go({ ...state, phase: FIRST_LIST });
      const events: WatcherEvent[] = [{ type: 'init', cause: 'checkpoint' }];
      for (const object of given.objects) events.push({ type: 'initApply', object });
      events.push({ type: 'initDone', resourceVersion: given.resourceVersion });
      const next = { ...state, phase: { kind: 'InitListed', resumed: true } } as const;
      return go(advance(next, given.resourceVersion), events);
    }
    case 'initialStateFailed':
      return fail(
        state,
        { ...state, phase: FIRST_LIST },
        0,
        {},
        'initial state unavailable: listing',
        outcome.err,
      );

    case 'listed': {
      const { cause } = inPhase(state, 'Empty', outcome);
      const events: WatcherEvent[] = [{ type: 'init', cause }];
      for (const object of outcome.items) events.push({ type: 'initApply', object });
      events.push({ type: 'initDone', resourceVersion: outcome.resourceVersion });
      const next = { ...state, phase: { kind: 'InitListed', resumed: false } } as const;
      return go(advance(next, outcome.resourceVersion), events, { list: cause });
    }
    case 'continueExpired':
      // client-go's pager (tools/pager/pager.go, ListPager.list with FullListIfExpired): a 410 on
      // a continue token is followed at once by one full list at the same resourceVersion. The
      // pages read are dropped; it is the same list (counted once), not a failure.
      return go({ ...state, phase: { ...inPhase(state, 'Empty', outcome), full: true } });
    case 'listFailed': {
      const { cause, relist } = inPhase(state, 'Empty', outcome);
      const what = 'list failed';
      const asked = { initial: true, resourceVersion: requestedResourceVersion(state) };
      // A failed full list starts over paginated: the pager's fallback lives within one list.
      const again = { ...state, phase: { kind: 'Empty', cause, relist } } as const;
      return (
        refused(state, outcome.err, what, { list: cause }, asked, env) ??
        backoff(state, again, env, { list: cause }, what, outcome.err)
      );
    }

    case 'watchOpened': {
      const watching = (from: string, initial: boolean): Phase => ({
        kind: 'Watching',
        stream: outcome.stream,
        from,
        startedAt: env.now,
        timeoutMs: outcome.timeoutMs,
        events: 0,
        initial,
      });
      if (phase.kind === 'Empty') {
        const next = { ...state, phase: watching(requestedResourceVersion(state), true) };
        return go(next, [{ type: 'init', cause: phase.cause }], { list: phase.cause });
      }
      const { resumed } = inPhase(state, 'InitListed', outcome);
      return go({ ...state, phase: watching(state.resourceVersion, false) }, NONE, { resume: resumed });
    }
    case 'watchFailed': {
      const err = outcome.err;
      const what = 'watch failed to start';
      if (phase.kind === 'Empty') {
        const counted = { list: phase.cause };
        const asked = { initial: true, resourceVersion: requestedResourceVersion(state) };
        const answer = refused(state, err, what, counted, asked, env);
        if (answer) return answer;
        if (err instanceof StatusError && [400, 403, 422].includes(err.code)) {
          // sendInitialEvents refused (WatchList off, or an old server): paginated lists from now
          // on, at once, as client-go's Reflector.ListAndWatchWithContext falls back to list.
          return fail(state, { ...state, streamMode: false }, 0, counted, what, err);
        }
        return backoff(state, state, env, counted, what, err);
      }
      inPhase(state, 'InitListed', outcome);
      const again = { ...state, phase: { kind: 'InitListed', resumed: true } } as const;
      return (
        refused(state, err, what, {}, { initial: false }, env) ?? backoff(state, again, env, {}, what, err)
      );
    }

    case 'events':
      return applyEvents(state, inPhase(state, 'Watching', outcome), outcome.events, env);
    case 'closed': {
      const watching = inPhase(state, 'Watching', outcome);
      const lived = env.now - watching.startedAt;
      const watchEnd: WatchEndCause = lived >= watching.timeoutMs - 1_000 ? 'timeout' : 'serverClose';
      // client-go's handleAnyWatch (VeryShortWatchError): a watch that ends at once with
      // nothing is an error, or a server that accepts and drops would be a hot loop.
      if (!worked(watching, env)) return backoff(state, resume(state), env, { watchEnd });
      return go(resume(state), NONE, { watchEnd });
    }
    case 'idle': {
      inPhase(state, 'Watching', outcome);
      // Dead TCP connections are the classic cause of silent informers: give up on this one and resume.
      const msg = 'watch stream silent for too long: resuming';
      const note: Note = { level: 'warn', msg, fields: { idleMs: outcome.idleMs } };
      return { ...go(resume(state), NONE, { watchEnd: 'idle' }), note };
    }
    case 'cut': {
      const watching = inPhase(state, 'Watching', outcome);
      if (isProbableEof(outcome.err) && worked(watching, env)) {
        // client-go's IsProbableEOF (Reflector.watch): a reset or an unexpected EOF ends a watch
        // that was working the way a clean close does (a load balancer or a restarting server
        // cut it). Resume at once; backing off would let a quiet watcher's resourceVersion
        // fall out of the window (410, relist).
        const fields = { err: describeError(outcome.err), resourceVersion: state.resourceVersion };
        const note: Note = { level: 'info', msg: 'watch stream cut: resuming', fields };
        return { ...go(resume(state), NONE, { watchEnd: 'reset' }), note };
      }
      return backoff(state, resume(state), env, { watchEnd: 'error' }, 'watch stream broke', outcome.err);
    }
  }
}

/**
 * The server refused the resourceVersion asked for: 410 Expired/Gone (no longer in its
 * history) or 504 "too large" (it has not reached it yet). One rule for both, client-go's
 * (tools/cache/reflector.go):
 * - A request for the initial state (a list, or a streaming list before its end marker) that
 *   named a resourceVersion: a consistent read ("") next, at once. `Reflector.list` and
 *   `Reflector.watchList` call `setIsLastSyncResourceVersionUnavailable(true)` on
 *   `isExpiredError || isTooLargeResourceVersionError` and retry at once, and
 *   `relistResourceVersion`/`rewatchResourceVersion` then answer "". A consistent read needs
 *   nothing the server lacks; one refused itself is an ordinary failure (backoff).
 * - A watch from the last resourceVersion: relist not older than it. `Reflector.watch` and
 *   `DefaultWatchErrorHandler` leave that flag unset ("LIST call with ResourceVersion=RV already
 *   has a semantic that it returns data at least as fresh as provided RV"). After a 410 at
 *   once, as kube-rs's watcher does (waiting brings no history back); after "too large" once
 *   the backoff (at least the Retry-After) has passed, as client-go waits its backoff between
 *   `ListAndWatch` runs: the server is behind, and a not-older-than read would wait for it.
 * Undefined when `err` is neither.
 */
function refused(
  state: WatcherState,
  err: unknown,
  what: string,
  counted: Counted,
  request: { initial: boolean; resourceVersion?: string },
  env: RestartEnv,
): Transition | undefined {
  const expired = isExpired(err);
  if (!expired && !isTooLargeResourceVersion(err)) return undefined;
  const cause: ListCause = expired ? 'expired' : 'tooLarge';
  if (request.initial) {
    if (!request.resourceVersion) return undefined;
    return fail(state, relist(state, cause, { resourceVersion: '' }), 0, counted, what, err);
  }
  const next = relist(state, cause, relistParams(state.resourceVersion));
  return expired ? fail(state, next, 0, counted, what, err) : backoff(state, next, env, counted, what, err);
}

/** Turns a chunk's watch events into watcher events; an ERROR event ends the stream and decides the restart. */
function applyEvents(
  state: WatcherState,
  watching: Extract<Phase, { kind: 'Watching' }>,
  events: WatchEvent[],
  env: RestartEnv,
): Transition {
  const out: WatcherEvent[] = [];
  let { resourceVersion } = state;
  let { initial, events: count } = watching;
  for (const event of events) {
    count++;
    const object = event.object;
    switch (event.type) {
      case 'ADDED':
        // A streaming list's initial objects come in no resourceVersion order: the resourceVersion
        // waits for the end marker, as client-go's handleAnyWatch propagates it only once an event
        // besides ADDED came (a cut stream restarts from where it began, never from an older one).
        if (!initial) resourceVersion = cacheMeta(object)?.resourceVersion || resourceVersion;
        out.push({ type: initial ? 'initApply' : 'apply', object });
        break;
      case 'MODIFIED':
        resourceVersion = cacheMeta(object)?.resourceVersion || resourceVersion;
        out.push({ type: initial ? 'initApply' : 'apply', object });
        break;
      case 'DELETED':
        resourceVersion = cacheMeta(object)?.resourceVersion || resourceVersion;
        out.push({ type: 'delete', object });
        break;
      case 'BOOKMARK': {
        const rv = object.metadata?.resourceVersion;
        resourceVersion = rv || resourceVersion;
        if (initial && isInitialEventsEnd(object)) {
          initial = false;
          out.push({ type: 'initDone', resourceVersion });
        } else if (rv) {
          out.push({ type: 'bookmark', resourceVersion: rv });
        }
        break;
      }
      case 'ERROR': {
        const at = { ...watching, events: count, initial };
        const status = StatusError.fromStream(object as never);
        return { ...watchError({ ...state, resourceVersion, phase: at }, at, status, env), events: out };
      }
    }
  }
  return go({ ...state, resourceVersion, phase: { ...watching, events: count, initial } }, out);
}

/** An ERROR event: a refused resourceVersion relists (see {@link refused}); anything else backs off and resumes. */
function watchError(
  state: WatcherState,
  watching: Extract<Phase, { kind: 'Watching' }>,
  err: StatusError,
  env: RestartEnv,
): Transition {
  const expired = isExpired(err);
  const what = expired ? 'watch expired: relisting' : 'watch ended with an error';
  const counted: Counted = { watchEnd: expired ? 'expired' : 'error' };
  const request = { initial: watching.initial, resourceVersion: watching.from };
  return (
    refused(state, err, what, counted, request, env) ?? backoff(state, resume(state), env, counted, what, err)
  );
}

/**
 * After a stream ends: watch again from the last resourceVersion, no list. A
 * streaming list that ends before its end marker starts over instead, as
 * client-go's `Reflector.watchList` loops until `watchListBookmarkReceived`.
 */
function resume(state: WatcherState): WatcherState {
  if (state.phase.kind === 'Watching' && state.phase.initial) {
    return relist(state, 'error', relistParams(state.resourceVersion));
  }
  return { ...state, phase: { kind: 'InitListed', resumed: true } };
}

function relist(state: WatcherState, cause: ListCause, params: ListParams): WatcherState {
  return { ...state, phase: { kind: 'Empty', cause, relist: params } };
}

/** client-go's `relistResourceVersion`: not older than the last resourceVersion; "" (consistent) when there is none. */
function relistParams(resourceVersion: string): ListParams {
  return resourceVersion
    ? { resourceVersion, resourceVersionMatch: 'NotOlderThan' }
    : { resourceVersion: '' };
}

function worked(watching: Extract<Phase, { kind: 'Watching' }>, env: RestartEnv): boolean {
  return watching.events > 0 || env.now - watching.startedAt >= env.minWatchMs;
}

function advance(state: WatcherState, resourceVersion: string): WatcherState {
  return resourceVersion ? { ...state, resourceVersion } : state;
}

function go(next: WatcherState, events = NONE, counted: Counted = {}): Transition {
  return { next, delayMs: 0, events, counted };
}

/** A transition after a failure (counted in `errors`), reported as `what` unless that is undefined. */
function fail(
  state: WatcherState,
  next: WatcherState,
  delayMs: number,
  counted: Counted,
  what?: string,
  err?: unknown,
): Transition {
  const t: Transition = { next, delayMs, events: NONE, counted: { ...counted, error: true } };
  if (what !== undefined) t.failure = { error: err, what, next: nextAction(state, next), delayMs };
  return t;
}

/** {@link fail}, with the backoff's wait first: at least the server's Retry-After, if `err` carries one. */
function backoff(
  state: WatcherState,
  next: WatcherState,
  env: RestartEnv,
  counted: Counted,
  what?: string,
  err?: unknown,
): Transition {
  const attempt = nextAttempt(state.attempt, state.lastFailureAt, env.now, env.backoff);
  const delayMs = Math.max(backoffDelay(attempt, env.backoff, env.random), retryAfterMs(err));
  return fail(state, { ...next, attempt, lastFailureAt: env.now }, delayMs, counted, what, err);
}

/** What `to` will ask the server, seen from `from`: the same request again, a (re)list, or a watch. */
function nextAction(from: WatcherState, to: WatcherState): WatcherNextAction {
  const resourceVersion = to.phase.kind === 'Empty' ? requestedResourceVersion(to) : to.resourceVersion;
  if (to.phase.kind === 'Empty') {
    const same =
      from.phase.kind === 'Empty' &&
      from.phase.cause === to.phase.cause &&
      from.streamMode === to.streamMode &&
      requestedResourceVersion(from) === resourceVersion;
    if (same) return { action: 'retry', request: to.streamMode ? 'streamingList' : 'list', resourceVersion };
    return { action: 'list', cause: to.phase.cause, resourceVersion, streaming: to.streamMode };
  }
  if (from.phase.kind === 'InitListed') return { action: 'retry', request: 'watch', resourceVersion };
  return { action: 'watch', resourceVersion };
}

/** `inPhase(state, kind, outcome)`: the phase, which must be `kind` for this outcome (a bug otherwise). */
function inPhase<K extends Phase['kind']>(
  state: WatcherState,
  kind: K,
  outcome: Outcome,
): Extract<Phase, { kind: K }> {
  if (state.phase.kind !== kind) throw new Error(`watcher: ${outcome.kind} in phase ${state.phase.kind}`);
  return state.phase as Extract<Phase, { kind: K }>;
}
