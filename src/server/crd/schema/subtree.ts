/**
 * Whether a schema node or any node a value walk can reach below it (items, properties,
 * additionalProperties) has a trait, computed once per node: the whole-object walks (embedded
 * resources, list sets and maps, CEL rules) skip the subtrees where they cannot find anything,
 * as upstream builds no validator for them.
 */
import { additionalSchema, type Structural } from './structural.js';

/** A trait of one node, with the answers for every node it was asked of. */
export interface Trait {
  own(s: Structural): boolean;
  readonly cache: WeakMap<Structural, boolean>;
}

/** A trait from the test of one node. */
export function trait(own: (s: Structural) => boolean): Trait {
  return { own, cache: new WeakMap() };
}

/** Whether `s` or a node below it has `t`. */
export function hasBelow(t: Trait, s: Structural): boolean {
  let has = t.cache.get(s);
  if (has === undefined) {
    has = t.own(s);
    if (!has && s.items !== undefined) has = hasBelow(t, s.items);
    if (!has && s.properties !== undefined) {
      for (const p of s.properties.values()) {
        if (hasBelow(t, p)) {
          has = true;
          break;
        }
      }
    }
    const extra = additionalSchema(s);
    if (!has && extra !== undefined) has = hasBelow(t, extra);
    t.cache.set(s, has);
  }
  return has;
}
