/**
 * The server's door: while it is closed (the server paused, or a snapshot being restored), every
 * request that arrives waits unanswered, health checks included, and goes on in its turn when
 * the door opens; one whose client gave up meanwhile is dropped. k8s.io/apiserver has no such
 * filter (its nearest is `WithRetryAfter`, which answers 429 while the server shuts down): this is
 * a process stopped with SIGSTOP, as seen from the network.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The door a request passes (faults/request-gate.ts `RequestGate`). */
export interface Door {
  readonly closed: boolean;
  /** Runs `go` now, or once the door opens. */
  pass(go: () => void): void;
}

/** A step of the chain before the request target is read. */
export type ExchangeHandler = (req: IncomingMessage, res: ServerResponse, received: number) => void;

/** Holds each request at `door` while it is closed, then hands it to `next`. */
export function withDoor(door: Door, next: ExchangeHandler): ExchangeHandler {
  return (req, res, received) => {
    if (!door.closed) return next(req, res, received);
    door.pass(() => {
      if (!req.socket.destroyed) next(req, res, received);
    });
  };
}
