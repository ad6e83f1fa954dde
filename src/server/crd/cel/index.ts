/**
 * CEL validation rules (`x-kubernetes-validations`) of custom resources: the room's entry
 * points. A CRD version's schema compiles with its rules via {@link compileCrdSchemaWithCel};
 * the CRD's own validation asks {@link compileRule} and the cost helpers.
 */
import { type CrdSchema, compileCrdSchema } from '../schema/engine.js';
import type { CrdSchemaProps } from '../schema/structural.js';
import { celHook } from './evaluate.js';
import { compileTree } from './rules.js';

export {
  costErrorMessage,
  MAX_REQUEST_SIZE_BYTES,
  maxSize,
  PER_CALL_LIMIT,
  RUNTIME_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  unboundedCardinality,
} from './cost.js';
export { celHook } from './evaluate.js';
export { type CompiledRule, compileRule, compileTree, type ValidationRule, validFieldPath } from './rules.js';

/**
 * A CRD version's schema compiled with its CEL rules: `validate(obj, { oldObject })` also runs
 * the rules (a fresh per-request cost budget each call), transition rules when `oldObject` is
 * given. Every rule is compiled here, once.
 */
export function compileCrdSchemaWithCel(openAPIV3Schema: CrdSchemaProps | undefined): CrdSchema {
  const schema = compileCrdSchema(openAPIV3Schema);
  compileTree(schema.structural);
  return {
    ...schema,
    validate: (obj, options) => schema.validate(obj, { ...options, cel: options?.cel ?? celHook() }),
  };
}
