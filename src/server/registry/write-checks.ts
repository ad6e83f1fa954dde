/**
 * The checks every write makes of the object it is given, as the generic registry makes them:
 * the type meta against the URL (the request decoder's errors), the strategy's validation with
 * the metadata no update may change (rest.BeforeCreate, rest.BeforeUpdate), and the one 422
 * that reports them.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { typeGroup } from '../kinds/api-errors.js';
import { apiVersionOf, type FieldError, type ResourceKind } from '../kinds/types.js';
import { formatInvalidMessage, invalid } from '../kinds/validation.js';

/** Throws the 400 of a body that is no object, or names another kind or version than the URL. */
export function checkTypeMeta(kind: ResourceKind, obj: KubeObject): void {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw StatusError.of('BadRequest', 'the request body must be a JSON object');
  }
  // A custom object's kind is judged by its validator instead (customresource/validator.go
  // `ValidateTypeMeta`: a 422 naming the object's own kind).
  if (obj.kind !== undefined && obj.kind !== kind.kind && !kind.custom) {
    throw StatusError.of('BadRequest', `the object kind ${String(obj.kind)} does not match ${kind.kind}`);
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(kind)) {
    throw StatusError.of(
      'BadRequest',
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersionOf(kind)})`,
    );
  }
}

/**
 * The kind's validation of a create (`old` undefined) or an update, thrown as one 422; then, on a
 * create or a main update, the strategy's warnings to `warn` (rest.BeforeCreate, BeforeUpdate).
 */
export function validateWrite(
  kind: ResourceKind,
  obj: KubeObject,
  old?: KubeObject,
  scope?: string,
  warn?: (text: string) => void,
): void {
  // A status-like endpoint with a validation of its own (the status strategy's ValidateUpdate).
  const statusLike =
    old &&
    kind.validateStatusUpdate &&
    (scope === 'status' || scope === 'approval' || scope === 'ephemeralcontainers' || scope === 'resize');
  const errors = [
    ...(old ? immutableMeta(obj, old) : []),
    ...(statusLike
      ? kind.validateStatusUpdate!(obj, old, scope)
      : [...(kind.validate?.(obj, old) ?? []), ...(old ? (kind.validateUpdate?.(obj, old) ?? []) : [])]),
  ];
  failOn(kind, obj, errors);
  if (warn && (!old || scope === 'main')) for (const text of kind.warnings?.(obj, old) ?? []) warn(text);
}

/** Throws the 422 of `errors`, if any. */
export function failOn(kindIn: ResourceKind, obj: KubeObject, errors: FieldError[]): void {
  if (errors.length === 0) return;
  // An unstructured object's error names the kind the object says it is (rest.BeforeCreate and
  // BeforeUpdate take it from the object): a custom object sent with another kind.
  const named =
    kindIn.custom && typeof obj.kind === 'string' && obj.kind !== '' ? { ...kindIn, kind: obj.kind } : kindIn;
  // The error names the Go type the object decodes into (an events.k8s.io Event is core's).
  const kind = { kind: named.kind, group: typeGroup(named) };
  const name = obj.metadata?.name ?? '';
  throw StatusError.of('Invalid', formatInvalidMessage(kind, name, errors), {
    // StatusDetails.Name is omitempty: an object without a name has none.
    name: name || undefined,
    group: kind.group || undefined,
    kind: kind.kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
  });
}

/**
 * What every kind's update validation refuses first: another uid
 * (rest.BeforeUpdate's validateCommonFields, apimachinery/pkg/api/validation/objectmeta.go
 * `ValidateObjectMetaUpdate` → `ValidateImmutableField`).
 */
function immutableMeta(obj: KubeObject, old: KubeObject): FieldError[] {
  const uid = obj.metadata?.uid;
  return uid !== old.metadata?.uid ? [invalid('metadata.uid', uid, 'field is immutable')] : [];
}
