/**
 * The handler chain every request goes down, in the shape of k8s.io/apiserver's
 * `DefaultBuildHandlerChain` (pkg/server/config.go): filters that each do one thing and hand the
 * request on, the outermost first. In order:
 *
 * 1. counted (`requests`, and `requestErrors` once a 4xx or 5xx is answered);
 * 2. timestamped, when requests are recorded (`WithRequestReceivedTimestamp`);
 * 3. the door (with-door.ts): held while the server is paused or restoring a snapshot;
 * 4. the wait group (with-wait-group.ts, `WithWaitGroup`): what a restore waits for;
 * 5. panic recovery (with-panic-recovery.ts, `WithPanicRecovery`): the target is read, and
 *    whatever is thrown below is answered as a Status;
 * 6. side doors: paths with a login of their own (the live view's `/ui`), before authentication;
 * 7. authentication (with-authentication.ts, `WithAuthentication`): the user, or 401;
 * 8. request info (with-request-info.ts, `WithRequestInfo`): the resource addressed;
 * 9. the resource filters the server adds (fault injection and the request record, faults/);
 * 10. the director: the handlers for a resource, the non-resource answers for anything else.
 *
 * This room knows none of the parts it strings together: the server hands them in.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../protocol/clock.js';
import type { Filter, Handler } from './api-request.js';
import type { Authenticator } from './auth.js';
import { withAuthentication } from './with-authentication.js';
import { type Door, withDoor } from './with-door.js';
import { withPanicRecovery } from './with-panic-recovery.js';
import { type ServedKinds, withRequestInfo } from './with-request-info.js';
import { withWaitGroup } from './with-wait-group.js';

/** The counters the chain keeps (stats/ `ServerStats`). */
export interface RequestCounts {
  requests: number;
  requestErrors: number;
}

/** The parts of a server the chain strings together. */
export interface HandlerChainConfig {
  counts: RequestCounts;
  /** Counts the bytes of the answers the chain writes itself (errors, text 404s). */
  countBytes(bytes: number): void;
  log(line: string): void;
  /** The clock that timestamps a request, when `recordsRequests`. */
  clock: Clock;
  recordsRequests: boolean;
  door: Door;
  /** The requests under way; those `waitGroupExempt` names are left out. */
  inFlight: Set<Promise<void>>;
  waitGroupExempt(req: IncomingMessage): boolean;
  /** Filters before authentication, for paths that have a door of their own. */
  sideDoors: readonly Filter[];
  /** Undefined serves everyone (`insecureNoAuth`). */
  authenticator: Authenticator | undefined;
  kinds: ServedKinds;
  /** Filters after request info: a resource request's `info` is known by then. */
  resourceFilters: readonly Filter[];
  /** The end of the chain. */
  director: Handler;
}

/** Strings `filters` in front of `end`, the first outermost. */
export function chain(filters: readonly Filter[], end: Handler): Handler {
  return filters.reduceRight<Handler>((next, filter) => (request) => filter(request, next), end);
}

/** The server's request listener: every request goes down the chain described above. */
export function buildHandlerChain(
  c: HandlerChainConfig,
): (req: IncomingMessage, res: ServerResponse) => void {
  const routed = chain(
    [
      ...c.sideDoors,
      withAuthentication(c.authenticator),
      withRequestInfo(c.kinds, c.countBytes),
      ...c.resourceFilters,
    ],
    c.director,
  );
  const recovered = withPanicRecovery(routed, c);
  const held = withDoor(c.door, withWaitGroup(c.inFlight, c.waitGroupExempt, recovered));
  return (req, res) => {
    c.counts.requests++;
    res.on('finish', () => {
      if (res.statusCode >= 400) c.counts.requestErrors++;
    });
    held(req, res, c.recordsRequests ? c.clock.now() : 0);
  };
}
