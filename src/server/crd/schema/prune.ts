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
  const walk: Walk = { at: [], pruned: [] };
  prune(obj, s, walk);
  return walk.pruned.sort(byteOrder);
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

/**
 * Where the walk is, as the path's segments (a key, or an index as a number), and what it
 * pruned: a path is spelled out only for a field that is pruned, not for every field visited.
 */
interface Walk {
  at: Array<string | number>;
  pruned: string[];
}

/** The path of `key` under the walk's position: `spec.items[0].bar`. */
function pathOf(walk: Walk, key: string): string {
  let out = '';
  for (const seg of walk.at) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out === '' ? key : `${out}.${key}`;
}

/** `prune` (or `skipPrune`) of the value at `key` of `x`, one level down. */
function pruneAt(x: Record<string, unknown>, key: string, s: Structural | undefined, walk: Walk): void {
  walk.at.push(key);
  prune(x[key], s, walk);
  walk.at.pop();
}

/** algorithm.go `prune`. */
function prune(x: unknown, s: Structural | undefined, walk: Walk): void {
  if (s?.preserveUnknownFields) {
    skipPrune(x, s, walk);
    return;
  }
  if (isJsonObject(x)) {
    if (s === undefined) {
      for (const k of Object.keys(x)) {
        walk.pruned.push(pathOf(walk, k));
        delete x[k];
      }
      return;
    }
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop) pruneAt(x, k, prop, walk);
      else if (s.additionalProperties !== undefined) pruneAt(x, k, additionalSchema(s), walk);
      else {
        if (!META_FIELDS.has(k) || !walk.at.every((seg) => seg === '')) walk.pruned.push(pathOf(walk, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    const items = s?.items;
    for (let i = 0; i < x.length; i++) {
      walk.at.push(i);
      prune(x[i], items, walk);
      walk.at.pop();
    }
  }
}

/** algorithm.go `skipPrune`: unknown fields stay; known ones are pruned by their own schema. */
function skipPrune(x: unknown, s: Structural, walk: Walk): void {
  if (isJsonObject(x)) {
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop) pruneAt(x, k, prop, walk);
      else if (s.additionalProperties !== undefined) pruneAt(x, k, additionalSchema(s), walk);
    }
  } else if (Array.isArray(x) && s.items) {
    for (let i = 0; i < x.length; i++) {
      walk.at.push(i);
      skipPrune(x[i], s.items, walk);
      walk.at.pop();
    }
  }
}
