/**
 * CEL validation rules (`x-kubernetes-validations`) of custom resources: the room's entry
 * points. A CRD version's schema compiles with its rules via {@link compileCrdSchemaWithCel};
 * the CRD's own validation asks {@link compileRule} and the cost helpers.
 */
import { createHash } from 'node:crypto';
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
export {
  type CompiledRule,
  compiledRules,
  compileRule,
  compileTree,
  type ValidationRule,
  validFieldPath,
} from './rules.js';

/**
 * Compiled schemas by their content (a hash of their JSON), most recently used last: a CRD's
 * validation (definition/schema-lists.ts) and its serving compile the same schema once, and a
 * CRD served again (each status write re-derives its kinds) finds it compiled. A compiled
 * schema holds no state of its own, so equal schemas share one. Bounded: the oldest go first.
 */
const schemas = new Map<string, CrdSchema>();
const SCHEMAS_MAX = 64;

/**
 * A CRD version's schema compiled with its CEL rules: `validate(obj, { oldObject })` also runs
 * the rules (a fresh per-request cost budget each call), transition rules when `oldObject` is
 * given. Every rule is compiled here, once.
 */
export function compileCrdSchemaWithCel(openAPIV3Schema: CrdSchemaProps | undefined): CrdSchema {
  const key = createHash('sha1')
    .update(JSON.stringify(openAPIV3Schema ?? null))
    .digest('base64');
  const hit = schemas.get(key);
  if (hit !== undefined) {
    schemas.delete(key);
    schemas.set(key, hit);
    return hit;
  }
  const schema = compileCrdSchema(openAPIV3Schema);
  compileTree(schema.structural);
  const out: CrdSchema = {
    ...schema,
    validate: (obj, options) => schema.validate(obj, { ...options, cel: options?.cel ?? celHook() }),
  };
  if (schemas.size >= SCHEMAS_MAX) schemas.delete(schemas.keys().next().value as string);
  schemas.set(key, out);
  return out;
}
