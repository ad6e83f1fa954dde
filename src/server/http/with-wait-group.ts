/**
 * The requests being served now, as k8s.io/apiserver's `WithWaitGroup` (server/filters/waitgroup.go)
 * counts them for a graceful shutdown: a restore waits for them before it swaps the state. A
 * watch counts until its stream has started, not for its whole life (kube leaves long-running
 * requests out the same way).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExchangeHandler } from './with-door.js';

/** Adds each request's handling to `inFlight` until it is done, except those `exempt` names. */
export function withWaitGroup(
  inFlight: Set<Promise<void>>,
  exempt: (req: IncomingMessage) => boolean,
  next: (req: IncomingMessage, res: ServerResponse, received: number) => Promise<void>,
): ExchangeHandler {
  return (req, res, received) => {
    const served = next(req, res, received);
    if (exempt(req)) return;
    inFlight.add(served);
    void served.finally(() => inFlight.delete(served));
  };
}
