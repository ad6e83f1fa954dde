/**
 * The Statuses the object layer answers with, worded as kube-apiserver words
 * them: clients (kubectl, client-go's retry helpers) match on reason, code and
 * details, so each failure has exactly one spelling here.
 */
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { StoreError } from '../stores/types.js';

/** `deployments.apps` / `pods`: how kube names a resource in messages. */
export function qualifiedResource(kind: ResourceKind): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}

/** A 404 Status for one object, worded as kube-apiserver words it. */
export function notFound(kind: ResourceKind, name: string): StatusError {
  return StatusError.of('NotFound', `${qualifiedResource(kind)} "${name}" not found`, {
    name,
    group: kind.group || undefined,
    kind: kind.plural,
  });
}

/** The 409 of a write that lost against a newer resourceVersion. */
export function conflict(kind: ResourceKind, name: string): StatusError {
  return StatusError.of(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: kind.group || undefined, kind: kind.plural },
  );
}

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
