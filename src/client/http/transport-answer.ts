/**
 * How an answer of the API server is read and how a request fails: the whole
 * body of an answer, {@link TransportError} for failures below HTTP, and the
 * Status an error answer carried.
 */
import type { IncomingMessage } from 'node:http';
import { failureStatus, isStatus, type Status, StatusReasons } from '../../protocol/status.js';

/** A failure below HTTP: refused connection, reset, TLS, DNS. Always retryable by watchers. */
export class TransportError extends Error {
  /** The Node.js error code (`ECONNREFUSED`, `ECONNRESET`, ...), when known. */
  readonly code: string | undefined;

  constructor(message: string, code?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TransportError';
    this.code = code;
  }
}

const CODE_REASONS = new Map<number, keyof typeof StatusReasons>(
  Object.entries(StatusReasons).map(([reason, code]) => [code, reason as keyof typeof StatusReasons]),
);

/** The Status an error answer carried, or one made from its code when the body is not a Status. */
export function statusFromAnswer(code: number, body: Buffer): Status {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (isStatus(parsed)) return parsed;
  } catch {
    // not JSON: fall through to a synthesized Status
  }
  const reason = CODE_REASONS.get(code) ?? 'InternalError';
  const text = body.toString('utf8').trim().slice(0, 200);
  return failureStatus(reason, text || `the server answered HTTP ${code}`, undefined, code);
}

/** The whole body of an answer; a cut or broken answer rejects with a TransportError or the signal's reason. */
export function readAll(res: IncomingMessage, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    // Ended by our signal (a deadline, the caller), the signal's reason says why, not the cut it caused.
    res.on('error', (err) =>
      reject(signal?.aborted ? signal.reason : new TransportError(err.message, undefined, { cause: err })),
    );
    res.on('aborted', () =>
      reject(
        signal?.aborted ? signal.reason : new TransportError('the server cut the answer short', 'ECONNRESET'),
      ),
    );
  });
}
