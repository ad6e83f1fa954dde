/**
 * Where an error thrown anywhere below becomes the answer, as k8s.io/apiserver's
 * `WithPanicRecovery` (server/filters/wrap.go) and the handlers' `ErrorNegotiated` make it: a
 * StatusError is answered as its Status, anything else as a 500 InternalError (and logged); an
 * error after the answer began cuts the connection, the only thing left to tell the client.
 * The request target is read here, so a malformed path is answered the same way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, Handler } from './api-request.js';
import { sendStatus, toStatus } from './http-io.js';
import { splitRequestTarget } from './request-info.js';

/** What the recovery needs of the server. */
export interface RecoveryOptions {
  /** Counts the bytes of an error answer. */
  countBytes(bytes: number): void;
  log(line: string): void;
}

/** Reads the request target, hands the request to `next`, and answers whatever it throws. */
export function withPanicRecovery(
  next: Handler,
  opts: RecoveryOptions,
): (req: IncomingMessage, res: ServerResponse, received: number) => Promise<void> {
  return async (req, res, received) => {
    try {
      // The raw target, never `new URL()`: URL parsing resolves dot segments and
      // would route `.../configmaps/..` to the namespace (see request-info.ts).
      const { segments, path, query } = splitRequestTarget(req.url ?? '/');
      const request: ApiRequest = { req, res, method: req.method ?? 'GET', path, segments, query, received };
      await next(request);
    } catch (err) {
      const status = toStatus(err);
      if (status.code >= 500) opts.log(`${req.method} ${req.url}: ${status.message}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      opts.countBytes(sendStatus(res, status));
    }
  };
}
