/**
 * One CRD version's schema, ready to use: what the custom resource handler of
 * apiextensions-apiserver (pkg/apiserver/customresource_handler.go) does with
 * `structuralSchemas[version]`, minus the HTTP and storage. The order a write takes is:
 *
 * 1. {@link CrdSchema.prune} as the decoder's `unstructuredSchemaCoercer.apply` does: the
 *    object's metadata coerced to ObjectMeta, unknown fields dropped (`PruneWithOptions`), nulls
 *    no schema allows and no default replaces dropped (`PruneNonNullableNullsWithoutDefaults`),
 *    embedded resources' metadata coerced (objectmeta.ts). The returned paths become, per
 *    `fieldValidation`,
 *    nothing (Ignore), `unknown field "<path>"` warnings (Warn) or a strict decoding error
 *    (Strict), exactly as for built-in kinds.
 * 2. {@link CrdSchema.default} as `unstructuredDefaulter.Default` does, on create, update and
 *    when a stored object is read back.
 * 3. {@link CrdSchema.validate} as the strategy's `Validate`: 422 `Invalid` from its errors.
 *
 * A version served with `x-kubernetes-preserve-unknown-fields` at the root simply prunes nothing.
 */
import type { FieldError } from '../../kinds/types.js';
import { applyDefaults, pruneNonNullableNulls } from './default.js';
import { coerceEmbeddedMetadata, coerceRootMetadata } from './objectmeta.js';
import { type PruneOptions, pruneUnknownFields } from './prune.js';
import { type CrdSchemaProps, compileStructural, type Structural } from './structural.js';
import { type ValidateOptions, validateCustomObject } from './validate.js';

/** A compiled CRD version schema. */
export interface CrdSchema {
  /** The compiled tree (for callers walking it themselves, e.g. a CEL evaluator). */
  readonly structural: Structural;
  /** Field errors of an object (or, with `fieldPath`, of a part such as `status`). */
  validate(obj: unknown, options?: ValidateOptions): FieldError[];
  /** Drops unknown fields (metadata's too) and disallowed nulls in place; returns the unknown fields' paths. */
  prune(obj: unknown, options?: PruneOptions): string[];
  /** Applies `default` values in place. */
  default(obj: unknown): void;
}

/** Compiles a CRD version's `openAPIV3Schema` (undefined: a schema that knows no fields). */
export function compileCrdSchema(openAPIV3Schema: CrdSchemaProps | undefined): CrdSchema {
  const structural = compileStructural(openAPIV3Schema);
  return {
    structural,
    validate: (obj, options) => validateCustomObject(structural, obj, options),
    prune: (obj, options) => {
      const root = options?.isResourceRoot ?? true;
      const paths = root ? coerceRootMetadata(obj) : [];
      paths.push(...pruneUnknownFields(obj, structural, options));
      pruneNonNullableNulls(obj, structural);
      paths.push(...coerceEmbeddedMetadata(obj, structural));
      return paths;
    },
    default: (obj) => applyDefaults(obj, structural),
  };
}
