/**
 * Cost: the static estimate a CRD's rules are refused by when written, and the meter that
 * bounds an evaluation. Upstream numbers (k8s.io/apiserver pkg/apis/cel/config.go and
 * apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go):
 * `PerCallLimit`, `RuntimeCELCostBudget`, `StaticEstimatedCostLimit`,
 * `StaticEstimatedCRDCostLimit`, `MaxRequestSizeBytes`.
 *
 * The estimate follows cel-go's shape (checker/cost.go: one unit a node, a comprehension's
 * body times its range's largest size, string functions a tenth of the string's length) and
 * upstream's size bounds for lists, maps and strings without maxItems, maxProperties and
 * maxLength (apiserver pkg/cel/types.go: what fits in a 3 MiB request); it is not cel-go's
 * exact number (README.md says how far it is).
 */
import { additionalSchema, type Structural } from '../schema/structural.js';

/** The cost one rule may spend in one evaluation. */
export const PER_CALL_LIMIT = 1_000_000;
/** The cost all rules of one write may spend together. */
export const RUNTIME_COST_BUDGET = 10_000_000;
/** The largest estimated cost of one expression a CRD may declare. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** The largest estimated cost of all expressions of one CRD version schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** celconfig `MaxRequestSizeBytes`. */
export const MAX_REQUEST_SIZE_BYTES = 3_145_728;

/**
 * The fewest bytes a value of the schema serializes to (apiserver pkg/cel/common/schemas.go
 * `SchemaDeclType`'s `MinSerializedSize`): an object `{}` plus each required property without a
 * default (`"name":` and its own least size and a comma).
 */
export function minSerializedSize(s: Structural | undefined): number {
  if (s?.intOrString) return 1;
  switch (s?.types.length === 1 ? s.types[0] : undefined) {
    case 'string':
      // limits.go: MinDurationSizeJSON, JSONDateSize, MinDatetimeSizeJSON, MinStringSize.
      return s!.format === 'duration' ? 3 : s!.format === 'date' ? 12 : s!.format === 'date-time' ? 21 : 2;
    case 'boolean':
      return 4; // true
    case 'integer':
    case 'number':
      return 1;
    case 'object': {
      if (additionalSchema(s!) !== undefined) return 2;
      let size = 2;
      for (const name of s!.required) {
        const prop = s!.properties?.get(name);
        if (prop !== undefined && prop.default === undefined)
          size += name.length + minSerializedSize(prop) + 4;
      }
      return size;
    }
    default:
      return 2; // [] or an unknown value
  }
}

/**
 * The most elements (or bytes) a value of the schema can have in one request: the `MaxElements`
 * of its declared type (schemas.go `SchemaDeclType` and its `estimate...` helpers).
 */
export function maxSize(s: Structural | undefined): number {
  if (s === undefined) return MAX_REQUEST_SIZE_BYTES;
  // maxLength counts runes, sizes count bytes: a rune is up to 4 (estimateMaxElementsFromMaxLength).
  if (s.intOrString) return s.maxLength !== undefined ? s.maxLength * 4 : MAX_REQUEST_SIZE_BYTES - 2;
  const type = s.types.length === 1 ? s.types[0] : undefined;
  if (type === 'array') {
    return s.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(s.items) + 1));
  }
  if (type === 'object') {
    const extra = additionalSchema(s);
    if (extra === undefined && s.properties) return s.properties.size;
    // estimateMaxAdditionalPropertiesFromMinSize: a pair is the value's least size plus 6.
    return s.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(extra) + 6));
  }
  if (type === 'string') {
    // Formats typed as bytes, durations and timestamps (estimateMaxStringLengthPerRequest).
    if (s.format === 'byte') return s.maxLength ?? MAX_REQUEST_SIZE_BYTES - 2;
    if (s.format === 'duration' || s.format === 'date-time') return 32; // MaxDurationSizeJSON, MaxDatetimeSizeJSON
    if (s.format === 'date') return 12; // JSONDateSize
    if (s.maxLength !== undefined) return s.maxLength * 4;
    // estimateMaxStringEnumLength: the longest value's bytes (not times 4).
    if (s.enum !== undefined && s.enum.length > 0)
      return s.enum.reduce<number>(
        (m, v) => (typeof v === 'string' ? Math.max(m, Buffer.byteLength(v)) : m),
        0,
      );
    return MAX_REQUEST_SIZE_BYTES - 2;
  }
  return 1;
}

/**
 * How many times a node's rules can run in one object: the product of the sizes of the lists
 * and maps above it, or, when one of them is unbounded, what fits in a request
 * (compilation.go `maxCardinality`).
 */
export function unboundedCardinality(s: Structural): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(s) + 1));
}

/** validation.go `getCostErrorMessage`. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text =
    factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Thrown when one evaluation passes its limit; cel-go's error text. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/**
 * The running cost of the evaluation in progress (evaluation is synchronous, so one meter
 * at a time). Comprehensions charge their range's size times their body's cost on entry.
 */
export const meter = { spent: 0, limit: Number.POSITIVE_INFINITY };

/** Charges `units`; throws {@link CostLimitExceeded} once the limit is passed. */
export function charge(units: number): void {
  meter.spent += units;
  if (meter.spent > meter.limit) throw new CostLimitExceeded();
}
