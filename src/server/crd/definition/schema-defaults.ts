/**
 * The defaults in a CRD's schema must be valid values of their own schema
 * and must carry no fields pruning would drop: k8s.io/apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/validation.go `ValidateDefaults`, run by
 * validation.go's `validateCustomResourceDefinitionValidation` once the
 * schema is structural. The value checks are the schema engine's own
 * (../schema/validate.ts, ../schema/prune.ts), so a default is judged exactly as a
 * custom object's field would be.
 *
 * Not here: defaults inside embedded resources' metadata (upstream coerces
 * and validates them as ObjectMeta; top-level metadata defaults are already
 * forbidden) and CEL rules on defaults.
 */
import type { FieldError } from '../../kinds/types.js';
import { pruneUnknownFields } from '../schema/prune.js';
import { type CrdSchemaProps, compileStructural, type Structural } from '../schema/structural.js';
import { validateCustomObject } from '../schema/validate.js';
import { invalid, key } from './errors.js';

/** `validate` of defaulting/validation.go: each default, then items and properties (sorted). */
function walk(s: Structural, path: string, insideMeta: boolean, errs: FieldError[]): void {
  if (s.embeddedResource) insideMeta = false;
  if (s.default !== undefined && s.default.value !== null && !insideMeta) {
    const value = s.default.value;
    const at = `${path}.default`;
    // requirePrunedDefaults: pruning a copy must change nothing.
    const pruned = structuredClone(value);
    if (pruneUnknownFields(pruned, s, { isResourceRoot: s.embeddedResource }).length > 0) {
      errs.push(invalid(at, value, 'must not have unknown fields'));
    }
    errs.push(...validateCustomObject(s, structuredClone(value), { fieldPath: at }));
  }
  if (s.items) walk(s.items, `${path}.items`, insideMeta, errs);
  for (const k of [...(s.properties?.keys() ?? [])].sort()) {
    const sub = s.properties?.get(k) as Structural;
    const meta =
      insideMeta || (s.embeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    walk(sub, key(`${path}.properties`, k), meta, errs);
  }
}

/**
 * `ValidateDefaults` for a structural `openAPIV3Schema` at `path`; the root
 * counts as an embedded resource (`isResourceRoot`).
 */
export function validateSchemaDefaults(schema: CrdSchemaProps, path: string): FieldError[] {
  const root = compileStructural(schema);
  const errs: FieldError[] = [];
  walk({ ...root, embeddedResource: true }, path, false, errs);
  return errs;
}
