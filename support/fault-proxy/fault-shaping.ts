/**
 * What the fault proxy (fault-proxy.ts) does to one request: the request a
 * fault policy sees, the fault actions, the Status bodies it answers with
 * (worded as kube-apiserver's), and the shaping of a forwarded answer's body
 * (a cut after N bytes, an ERROR event after N watch lines).
 */

import { failureStatus, type Status } from '../../src/index.js';

/** The request a fault policy sees. */
export interface ProxiedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** `watch=1|true` in the query. */
  watch: boolean;
}

/** What the proxy does with one request. */
export type FaultAction =
  | { kind: 'pass' }
  /**
   * Answer with this HTTP code and a Status body as kube-apiserver words it:
   * 429 (with Retry-After), 500, 503, 410 Expired, or 504 "Too large resource
   * version" (a lagging watch cache; with Retry-After too).
   */
  | { kind: 'status'; code: 410 | 429 | 500 | 503 | 504; retryAfterSeconds?: number }
  /** Destroy the client's socket before answering (a refused or reset connection). */
  | { kind: 'reset' }
  /** Forward the answer but cut the connection after this many body bytes. */
  | { kind: 'cut'; afterBytes: number }
  /**
   * Forward this many lines of a watch, then end it with an ERROR event
   * carrying a Status of `code` (410 Expired, as after a compaction, or 500).
   */
  | { kind: 'errorEvent'; afterLines: number; code: 410 | 500 };

/**
 * Applies a `cut` (after N body bytes) or an `errorEvent` (after N watch
 * lines) to one answer's body, chunk by chunk; `pass` leaves it alone.
 */
export class BodyShaper {
  private bytesLeft = Number.POSITIVE_INFINITY;
  /** Watch lines still to forward before the injected ERROR event; undefined: none to inject. */
  private linesLeft: number | undefined;
  private readonly errorCode: 410 | 500 = 500;
  private cutDone = false;

  constructor(action: FaultAction, watch: boolean) {
    if (action.kind === 'cut') this.bytesLeft = action.afterBytes;
    if (action.kind === 'errorEvent' && watch) {
      this.linesLeft = action.afterLines;
      this.errorCode = action.code;
    }
  }

  /** Whether this answer gets cut. */
  get cuts(): boolean {
    return Number.isFinite(this.bytesLeft);
  }

  /** Whether the cut happened. */
  get isCut(): boolean {
    return this.cutDone;
  }

  /** Only a watch that opened (200) gets an ERROR event. */
  answered(statusCode: number): void {
    if (statusCode !== 200) this.linesLeft = undefined;
  }

  /** Whether the ERROR event goes right after the headers. */
  errorAtHeaders(): boolean {
    return this.linesLeft === 0;
  }

  /** Undefined: forward `chunk` as is; else forward `forward`, next cut or end with the ERROR event. */
  shape(chunk: Buffer): { forward: Buffer; next: 'cut' | 'error' } | undefined {
    if (this.linesLeft !== undefined) {
      let end = 0;
      while (this.linesLeft > 0) {
        const nl = chunk.indexOf(10, end);
        if (nl < 0) break;
        end = nl + 1;
        this.linesLeft--;
      }
      if (this.linesLeft === 0) return { forward: chunk.subarray(0, end), next: 'error' };
    }
    if (chunk.length >= this.bytesLeft) {
      const forward = chunk.subarray(0, this.bytesLeft);
      this.bytesLeft = 0;
      this.cutDone = true;
      return { forward, next: 'cut' };
    }
    this.bytesLeft -= chunk.length;
    return undefined;
  }

  /** The injected ERROR event line. */
  errorLine(): Buffer {
    const status =
      this.errorCode === 410
        ? failureStatus('Expired', 'too old resource version: 1 (2) [injected by the proxy]', undefined, 410)
        : failureStatus('InternalError', 'the proxy says: internal error [injected]');
    return Buffer.from(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`);
  }
}

/** The Status kube-apiserver would send with `code`. */
export function statusFor(code: 410 | 429 | 500 | 503 | 504, retryAfterSeconds: number): Status {
  switch (code) {
    case 410:
      return failureStatus(
        'Expired',
        'too old resource version: 1 (2) [injected by the proxy]',
        undefined,
        410,
      );
    case 429:
      return failureStatus('TooManyRequests', 'the proxy says: too many requests, please try again later', {
        retryAfterSeconds,
      });
    case 504:
      return failureStatus(
        'Timeout',
        'Timeout: Too large resource version: 2, current: 1 [injected by the proxy]',
        {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds,
        },
        504,
      );
    default:
      return failureStatus(
        code === 500 ? 'InternalError' : 'ServiceUnavailable',
        'the proxy says: upstream failure',
      );
  }
}
