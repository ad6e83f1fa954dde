import { ClientClosedError, GRPCUnavailableError } from 'etcd3';
import { StoreError } from './types.js';

/** Maps an etcd/gRPC failure to a {@link StoreError}. */
export function toStoreError(err: unknown): StoreError {
  if (err instanceof StoreError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/request is too large|larger than max/i.test(message)) {
    return new StoreError(
      'too-large',
      `etcd refused the object: it is over etcd's --max-request-bytes (${message.replace(/^\d+ \w+: /, '')})`,
    );
  }
  if (/required revision has been compacted/.test(message)) return new StoreError('compacted', message);
  if (/required revision is a future revision/.test(message)) return new StoreError('future', message);
  return new StoreError('unavailable', `etcd: ${message}`);
}

/** A member that cannot be reached (dead, restarting): another member may answer. */
export function unreachable(err: Error): boolean {
  return err instanceof GRPCUnavailableError;
}

/** Failures that go away by themselves: a dead member (another is tried), an election, a timeout. */
export function isTransient(err: unknown): boolean {
  if (err instanceof StoreError || err instanceof ClientClosedError || !(err instanceof Error)) return false;
  if (unreachable(err) || /circuit breaker is open/.test(err.message)) return true;
  return /leader|timed out|deadline|unavailable|too many requests/i.test(err.message);
}
