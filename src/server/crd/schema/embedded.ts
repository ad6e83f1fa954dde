/**
 * Checks of embedded resources (`x-kubernetes-embedded-resource: true`) inside a custom object,
 * as apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go `Validate` (called by
 * the custom resource strategy with isResourceRoot false, so the object's own metadata is left
 * to the usual ObjectMeta checks): an embedded object needs a string `apiVersion` that parses as
 * a group/version and a `kind` that is a DNS-1035 label in any case, and its `metadata` must be
 * an ObjectMeta that `ValidateObjectMeta` accepts, with the name checked only as a path segment
 * (`validatePathSegment`) and a missing name tolerated (`fakename`).
 *
 * Paths are field.Path's (`.child`, `[key]`, `[i]`), as in listtype.
 */
import type { FieldError } from '../../kinds/types.js';
import { validateObjectMeta } from '../../kinds/validation.js';
import { isDNS1035Label, isPathSegmentName } from '../../kinds/validation-names.js';
import { jsonKindOf } from '../../schema/go-text.js';
import { invalidError, requiredError } from './errors.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';
import { hasBelow, trait } from './subtree.js';

const EMBEDDED = trait((s) => s.embeddedResource);

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** objectmeta/validation.go `Validate` (not at a resource root): errors of every embedded resource in `x`. */
export function validateEmbeddedResources(
  schema: Structural | undefined,
  x: unknown,
  path = '',
): FieldError[] {
  // A subtree without embedded resources has nothing to report.
  if (schema === undefined || !hasBelow(EMBEDDED, schema)) return [];
  const errors: FieldError[] = [];
  if (isJsonObject(x)) {
    if (schema.embeddedResource) errors.push(...validateEmbeddedResource(path, x));
    const extra = additionalSchema(schema);
    for (const [k, v] of Object.entries(x)) {
      const prop = schema.properties?.get(k);
      if (prop) errors.push(...validateEmbeddedResources(prop, v, child(path, k)));
      else if (extra) errors.push(...validateEmbeddedResources(extra, v, `${path}[${k}]`));
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++)
      errors.push(...validateEmbeddedResources(schema.items, x[i], `${path}[${i}]`));
  }
  return errors;
}

/** objectmeta/validation.go `validateEmbeddedResource`. */
function validateEmbeddedResource(path: string, x: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  if (!('apiVersion' in x)) errors.push(requiredError(child(path, 'apiVersion')));
  if (!('kind' in x)) errors.push(requiredError(child(path, 'kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') errors.push(...checkApiVersion(child(path, k), v));
    else if (k === 'kind') errors.push(...checkKind(child(path, k), v));
    else if (k === 'metadata') errors.push(...checkMetadata(child(path, k), v));
  }
  return errors;
}

function checkApiVersion(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [invalidError(path, v, 'must be a string')];
  if (v === '') return [invalidError(path, v, 'must not be empty')];
  // runtime/schema group_version.go `ParseGroupVersion`: at most one `/`.
  if (v !== '/' && v.split('/').length > 2)
    return [invalidError(path, v, `unexpected GroupVersion string: ${v}`)];
  return [];
}

function checkKind(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [invalidError(path, v, 'must be a string')];
  if (v === '') return [invalidError(path, v, 'must not be empty')];
  const errs = isDNS1035Label(v.toLowerCase());
  return errs.length > 0
    ? [invalidError(path, v, `may have mixed case, but should otherwise match: ${errs.join(',')}`)]
    : [];
}

function checkMetadata(path: string, v: unknown): FieldError[] {
  if (v === null) return [];
  if (!isJsonObject(v)) {
    // coerce.go `GetObjectMeta`: encoding/json's error decoding it into ObjectMeta.
    return [
      invalidError(path, v, `json: cannot unmarshal ${jsonKindOf(v)} into Go value of type v1.ObjectMeta`),
    ];
  }
  const meta = { ...v, name: typeof v.name === 'string' && v.name !== '' ? v.name : 'fakename' };
  // kinds' ValidateObjectMeta names fields from `metadata.`; they move under this path.
  return validateObjectMeta({ metadata: meta }, isPathSegmentName).map((e) => ({
    ...e,
    field: `${path}${e.field.slice('metadata'.length)}`,
  }));
}
