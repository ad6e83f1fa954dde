/**
 * Pruning of unknown fields, as apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go
 * `PruneWithOptions` does it with `TrackUnknownFieldPaths` set: every field the schema does not
 * specify is deleted in place, and its path (`spec.foo`, `spec.items[0].bar`) is returned,
 * sorted, so the caller can answer `fieldValidation` (Ignore drops them silently, Warn turns them
 * into `unknown field "<path>"` warnings, Strict refuses the request).
 *
 * `x-kubernetes-preserve-unknown-fields` keeps unknown fields at that level while still pruning
 * inside the properties it specifies (`skipPrune`); `x-kubernetes-embedded-resource` keeps
 * `apiVersion`, `kind` and `metadata`; at the resource root those three are kept and never
 * reported. (Pruning an embedded resource's metadata to ObjectMeta's fields is
 * pkg/apiserver/schema/objectmeta's job, not done here.)
 */
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Options of {@link pruneUnknownFields}. */
export interface PruneOptions {
  /** The value is a whole object (apiVersion, kind and metadata kept); true unless said. */
  isResourceRoot?: boolean;
}

/** Go's sort.Strings: byte order. */
function byteOrder(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/**
 * Deletes the fields `schema` does not specify from `obj` (in place) and returns their paths,
 * sorted (pruning/algorithm.go `PruneWithOptions`).
 */
export function pruneUnknownFields(
  obj: unknown,
  schema: Structural | undefined,
  options: PruneOptions = {},
): string[] {
  let s = schema;
  if (options.isResourceRoot ?? true) {
    // The root is always treated as an embedded resource.
    s = s ? { ...s, embeddedResource: true } : rootOnly();
  }
  const pruned: string[] = [];
  prune(obj, s, '', pruned);
  return pruned.sort(byteOrder);
}

function rootOnly(): Structural {
  return {
    types: [],
    nullable: false,
    exclusiveMaximum: false,
    exclusiveMinimum: false,
    uniqueItems: false,
    required: [],
    allOf: [],
    anyOf: [],
    oneOf: [],
    preserveUnknownFields: false,
    embeddedResource: true,
    intOrString: false,
    listMapKeys: [],
    celRules: [],
  };
}

const keyPath = (parent: string, key: string): string => (parent === '' ? key : `${parent}.${key}`);

/** algorithm.go `prune`. */
function prune(x: unknown, s: Structural | undefined, path: string, pruned: string[]): void {
  if (s?.preserveUnknownFields) {
    skipPrune(x, s, path, pruned);
    return;
  }
  if (isJsonObject(x)) {
    if (s === undefined) {
      for (const k of Object.keys(x)) {
        pruned.push(keyPath(path, k));
        delete x[k];
      }
      return;
    }
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop) prune(x[k], prop, keyPath(path, k), pruned);
      else if (s.additionalProperties !== undefined)
        prune(x[k], additionalSchema(s), keyPath(path, k), pruned);
      else {
        if (!META_FIELDS.has(k) || path !== '') pruned.push(keyPath(path, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => {
      prune(v, s?.items, `${path}[${i}]`, pruned);
    });
  }
}

/** algorithm.go `skipPrune`: unknown fields stay; known ones are pruned by their own schema. */
function skipPrune(x: unknown, s: Structural, path: string, pruned: string[]): void {
  if (isJsonObject(x)) {
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop) prune(x[k], prop, keyPath(path, k), pruned);
      else if (s.additionalProperties !== undefined)
        prune(x[k], additionalSchema(s), keyPath(path, k), pruned);
    }
  } else if (Array.isArray(x) && s.items) {
    x.forEach((v, i) => {
      skipPrune(v, s.items!, `${path}[${i}]`, pruned);
    });
  }
}
