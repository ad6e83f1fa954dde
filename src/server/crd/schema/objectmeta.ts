/**
 * Coercion of ObjectMeta in custom objects, as the custom resource decoder does it with
 * `dropInvalidMetadata` (apiextensions-apiserver pkg/apiserver/customresource_handler.go
 * `unstructuredSchemaCoercer.apply`, pkg/apiserver/schema/objectmeta/coerce.go
 * `GetObjectMetaWithOptions` and algorithm.go `coercer.coerce`): the object's `metadata`, and
 * the `metadata` of every embedded resource, keep only what decodes into ObjectMeta. Unknown
 * fields are dropped and returned as `metadata.<field>` (`spec.template.metadata.<field>`) in
 * the strict decoder's notation; a field of the wrong type is dropped without a word
 * (`DropMalformedFields`); an embedded resource's non-string `apiVersion` or `kind` is dropped.
 *
 * ObjectMeta's typed check is the built-in schema engine's (../schema/typed-check.ts), the same
 * one every built-in kind's metadata goes through.
 */
import { strictPath } from '../../schema/issue-text.js';
import { checkerOf, runCheck } from '../../schema/typed-check.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';
import { hasBelow, trait } from './subtree.js';

const EMBEDDED = trait((s) => s.embeddedResource);

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * Coerces `x.metadata` in place; the unknown fields' paths, each `<prefix>.metadata.<field>`
 * (`GetObjectMetaWithOptions` with `ReturnUnknownFieldPaths`).
 */
function coerceMetadata(x: Record<string, unknown>, prefix: string): string[] {
  const meta = x.metadata;
  if (meta === undefined || meta === null) return [];
  if (!isJsonObject(meta)) {
    // Not an object: nothing of it decodes; with DropMalformedFields it goes.
    delete x.metadata;
    return [];
  }
  const check = checkerOf(OBJECT_META);
  if (check === undefined) return [];
  const unknown: string[] = [];
  const malformed = new Set<string>();
  const base = prefix === '' ? 'metadata' : `${prefix}.metadata`;
  for (const issue of runCheck(check, meta)) {
    if (issue.kind === 'unknown') unknown.push(`${base}.${strictPath(issue)}`);
    else if (typeof issue.keys[0] === 'string') malformed.add(issue.keys[0]);
  }
  // coerce.go: each top-level field that does not decode on its own is left out.
  for (const key of malformed) delete meta[key];
  return unknown;
}

/** The object's own metadata, as the decoder's `GetObjectMetaWithOptions` at the root coerces it. */
export function coerceRootMetadata(obj: unknown): string[] {
  return isJsonObject(obj) ? coerceMetadata(obj, '') : [];
}

/**
 * Every embedded resource's metadata (`CoerceWithOptions` with isResourceRoot false); the
 * unknown fields' paths, sorted.
 */
export function coerceEmbeddedMetadata(obj: unknown, schema: Structural | undefined): string[] {
  const unknown: string[] = [];
  coerce(obj, schema, '', unknown);
  return unknown.sort();
}

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** algorithm.go `coercer.coerce` with DropInvalidFields and ReturnUnknownFieldPaths. */
function coerce(x: unknown, s: Structural | undefined, path: string, unknown: string[]): void {
  // Only embedded resources are coerced: a subtree without one is left as it is.
  if (s === undefined || !hasBelow(EMBEDDED, s)) return;
  if (isJsonObject(x)) {
    if (s.embeddedResource) {
      for (const k of ['apiVersion', 'kind']) if (k in x && typeof x[k] !== 'string') delete x[k];
      unknown.push(...coerceMetadata(x, path));
    }
    const extra = additionalSchema(s);
    for (const [k, v] of Object.entries(x)) {
      const prop = s.properties?.get(k);
      if (prop) coerce(v, prop, child(path, k), unknown);
      else if (extra) coerce(v, extra, `${path}[${k}]`, unknown);
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) coerce(x[i], s.items, `${path}[${i}]`, unknown);
  }
}
