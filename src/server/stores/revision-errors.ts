/**
 * The answers for a resourceVersion the storage cannot serve: too new (504
 * after a wait, k8s.io/apiserver/pkg/storage/errors.go
 * `NewTooLargeResourceVersionError`) or too old (410, the etcd3 store's
 * compacted read and the watch cache's expired history).
 */
import { StatusError } from '../../protocol/status.js';

/** The 504 kube-apiserver answers for a resourceVersion newer than it has, after waiting. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return StatusError.of(
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
    504,
  );
}

/** The 410 for a resourceVersion the history or the store no longer reaches. */
export function tooOldResourceVersion(requested: number, oldest: number): StatusError {
  return StatusError.of('Expired', `too old resource version: ${requested} (${oldest})`, undefined, 410);
}
