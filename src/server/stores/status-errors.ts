/**
 * A store's failure as the Status kube-apiserver answers with
 * (k8s.io/apiserver/pkg/storage/errors `InterpretGetError` and friends).
 */
import { StatusError } from '../../protocol/status.js';
import { conflict, notFound, qualifiedResource } from '../kinds/api-errors.js';
import type { ResourceKind } from '../kinds/types.js';
import { StoreError } from './types.js';

/** Maps a storage failure to the Status kube-apiserver answers. */
export function storeErrorToStatus(err: unknown, kind: ResourceKind, name: string): unknown {
  if (!(err instanceof StoreError)) return err;
  switch (err.code) {
    case 'exists':
      return StatusError.of('AlreadyExists', `${qualifiedResource(kind)} "${name}" already exists`, {
        name,
        group: kind.group || undefined,
        kind: kind.plural,
      });
    case 'not-found':
      return notFound(kind, name);
    case 'conflict':
      return conflict(kind, name);
    case 'compacted':
      return StatusError.of(
        'Expired',
        `The resourceVersion for the provided list is too old.`,
        undefined,
        410,
      );
    case 'too-large':
      return StatusError.of('RequestEntityTooLarge', `Request entity too large: ${err.message}`);
    default:
      return StatusError.of('InternalError', `storage error: ${err.message}`);
  }
}
