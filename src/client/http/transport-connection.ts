/**
 * The connection side of a Transport: one HTTP exchange over node:http(s),
 * the agent (connection pool, TLS context, proxy) it runs on, and how a
 * request sent on a keep-alive socket the server had already closed is told
 * apart from a real failure.
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { ClusterConnection } from '../config/index.js';
import { connectThroughProxy } from './proxy.js';
import { TransportError } from './transport-answer.js';

/** Methods Go's transport replays on a new connection when a reused one turns out dead. */
const REPLAYABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How a request sent on a keep-alive socket the server had already closed fails. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** How send() ends a request whose signal aborted; the caller is given the signal's reason. */
class RequestAborted extends Error {
  constructor() {
    super('the request was aborted');
    this.name = 'AbortError';
  }
}

/** A replayable request failed on a reused socket before any answer: see `Transport.openOn`. */
export class StaleConnectionError extends Error {
  override readonly cause: TransportError;

  constructor(cause: TransportError) {
    super(cause.message);
    this.cause = cause;
  }
}

/**
 * Closes the agent's idle pooled sockets, so the next request opens a new
 * connection: when one turned out closed by the server (it restarted, or its
 * idle timeout fired), the others it had open are as likely gone.
 */
export function dropIdleSockets(agent: HttpAgent): void {
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
}

/**
 * One HTTP exchange up to the answer's head. A failure on a reused socket
 * before any answer byte, for a method that may be replayed, is a
 * {@link StaleConnectionError} (its cause the TransportError to report).
 *
 * `signal` ends the exchange (its answer too) until the request closes:
 * one listener of ours, where node's own `signal` option costs an abort
 * listener and an end-of-stream watch per request (what that costs a relist
 * cycle is measured by `npx tsx bench/experiments/client-cost.ts`, which
 * prints its figures and writes no JSON; see docs/bookmarks.md).
 */
export function send(
  url: URL,
  options: RequestOptions,
  payload: Buffer | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = send(options, resolve);
    if (signal) {
      const onAbort = () => r.destroy(new RequestAborted());
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        r.once('close', () => signal.removeEventListener('abort', onAbort));
      }
    }
    r.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof RequestAborted) {
        reject(signal?.reason ?? err);
        return;
      }
      const failure = new TransportError(
        `${options.method} ${url.origin}${url.pathname}: ${err.message}`,
        err.code,
        { cause: err },
      );
      const replayable = REPLAYABLE.has(options.method ?? 'GET') && payload === undefined;
      if (r.reusedSocket && replayable && STALE_SOCKET.has(err.code ?? '')) {
        reject(new StaleConnectionError(failure));
      } else {
        reject(failure);
      }
    });
    r.end(payload);
  });
}

/**
 * A new agent for requests to `url` with this client certificate: keep-alive,
 * newest idle socket first, through the connection's proxy when it has one.
 */
export function newAgent(
  url: URL,
  c: ClusterConnection,
  certPem: string | undefined,
  keyPem: string | undefined,
): HttpAgent {
  const common = { keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, scheduling: 'lifo' as const };
  if (url.protocol === 'https:') {
    // One secure context for every connection: without it each new socket
    // parses the CA bundle and the client key pair again, a cost paid by every
    // watch reconnect that cannot reuse a pooled socket (`npm run bench:reconnect`
    // measures a reconnect's client CPU over TLS, bench/results/reconnect.json).
    const tls = {
      secureContext: createSecureContext({
        ca: c.caPem,
        cert: certPem,
        key: keyPem,
      }),
      rejectUnauthorized: !c.insecureSkipTlsVerify,
      servername: c.tlsServerName,
    };
    return c.proxyUrl ? connectThroughProxy(c.proxyUrl, tls, common) : new HttpsAgent({ ...common, ...tls });
  }
  return new HttpAgent(common);
}
