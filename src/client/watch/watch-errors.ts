/**
 * How the watcher reads an error: whether a broken stream was a probable EOF,
 * how long the server asked to wait, and one line to log.
 */
import { StatusError } from '../../protocol/status.js';

/** The server's Retry-After (ms), 0 when `err` carries none. */
export function retryAfterMs(err: unknown): number {
  if (err instanceof StatusError) return (err.status.details?.retryAfterSeconds ?? 0) * 1000;
  return 0;
}

/** Connection-level ends of an established stream: a reset, a broken pipe, an EOF before the final chunk. */
const PROBABLE_EOF_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UNEXPECTED_EOF',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** client-go's `IsProbableEOF`: the connection ended under the stream (not an error the server reported). */
export function isProbableEof(err: unknown): boolean {
  if (err instanceof StatusError || !(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== undefined && PROBABLE_EOF_CODES.has(code)) return true;
  return /socket hang up|connection reset|unexpected EOF|premature close|^aborted$/i.test(err.message);
}

/** An error in one line, as the watcher logs it: a Status as `code reason: message`. */
export function describeError(err: unknown): string {
  if (err instanceof StatusError) return `${err.code} ${err.reason ?? ''}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
