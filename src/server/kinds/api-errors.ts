/**
 * The Statuses that name one object of a kind, worded as kube-apiserver words
 * them (k8s.io/apimachinery/pkg/api/errors `NewNotFound`, `NewConflict`):
 * clients (kubectl, client-go's retry helpers) match on reason, code and
 * details, so each failure has exactly one spelling here.
 */
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from './types.js';

/** `deployments.apps` / `pods`: how kube names a resource in messages. */
export function qualifiedResource(kind: ResourceKind): string {
  return kind.group ? `${kind.plural}.${kind.group}` : kind.plural;
}

/**
 * The group of the Go type a kind's objects are decoded into, which Invalid and precondition
 * errors name (`errors.NewInvalid(kind.GroupKind(), ...)` with the internal object's kind): a
 * kind served over another resource's objects is that resource's type (an events.k8s.io Event
 * is a core Event there), while NotFound and Conflict name the resource the request named.
 */
export function typeGroup(kind: Pick<ResourceKind, 'group' | 'storage'>): string {
  return kind.storage ? kind.storage.group : kind.group;
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
