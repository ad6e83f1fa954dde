/**
 * The walk that hands each schema node's CEL rules (`x-kubernetes-validations`) to the
 * evaluator (pkg/apiserver/schema/cel/validation.go `Validator.validate`), with the old value
 * each node correlates with on update (k8s.io/apiserver pkg/cel/common `CorrelatedObject`).
 * The evaluator itself lives in ../cel; this file knows only the order and the correlation.
 *
 * Subtrees whose schema carries no rule at all are not walked: upstream builds no validator
 * for them (validation.go `validator` returns nil when a schema and its children have no
 * rules), so nothing there can report, spend budget or be ratcheted.
 */
import type { FieldError } from '../../kinds/types.js';
import { jsonEqual } from './checks.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';
import { hasBelow, trait } from './subtree.js';

/** What a {@link CelHook} knows of the node beyond its rules, value and path. */
export interface CelNode {
  schema: Structural;
  /**
   * The old value correlated with this one on update (validation.go `validateMap` by key,
   * `validateArray` by a map list's keys); transition rules (`oldSelf`) run only with one.
   */
  old?: { value: unknown };
  /** Whether the nearest correlated value is unchanged: its rule errors are then ratcheted. */
  unchanged(): boolean;
}

/**
 * Hook for `x-kubernetes-validations`: called with each node's rules and value after the
 * OpenAPI checks, and with each allOf branch's rules on the same node (the evaluator lives in
 * ../cel; `rules` is the list to run, `node.schema` the node's schema). `exhausted` stops the walk once the
 * request's cost budget is spent (validation.go returns as soon as `remainingBudget < 0`).
 */
export type CelHook = ((
  rules: readonly unknown[],
  value: unknown,
  path: string,
  node: CelNode,
) => FieldError[]) & {
  exhausted?: () => boolean;
};

/** The old value a new one is correlated with (k8s.io/apiserver cel/common `CorrelatedObject`). */
export type Old = { value: unknown } | undefined;

/** `CorrelatedObject.Index`: only a `map` list's items correlate, by their key fields. */
export function oldItem(old: Old, s: Structural, item: unknown): Old {
  if (old === undefined || !Array.isArray(old.value) || s.listType !== 'map' || !isJsonObject(item))
    return undefined;
  for (const o of old.value) {
    if (isJsonObject(o) && sameKeys(s.listMapKeys, o, item)) return { value: o };
  }
  return undefined;
}

function sameKeys(keys: readonly string[], a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const k of keys) if (!jsonEqual(a[k] ?? null, b[k] ?? null)) return false;
  return true;
}

/** A node of the walk; `unchanged` is asked at most once of each correlated value. */
class WalkNode implements CelNode {
  readonly schema: Structural;
  readonly old: Old;
  private readonly value: unknown;
  private readonly parent: WalkNode | undefined;
  private same: boolean | undefined;

  constructor(schema: Structural, value: unknown, old: Old, parent: WalkNode | undefined) {
    this.schema = schema;
    this.value = value;
    this.old = old;
    this.parent = parent;
  }

  /** The ratcheting question `shouldRatchetError` asks of the nearest correlated value. */
  unchanged(): boolean {
    if (this.old === undefined) return this.parent === undefined ? false : this.parent.unchanged();
    if (this.same === undefined) this.same = jsonEqual(this.value, this.old.value ?? null);
    return this.same;
  }
}

const allOfCache = new WeakMap<Structural, Array<readonly unknown[]>>();

/** The rules of the allOf branches of `s` and of theirs, each branch's own list. */
function allOfRules(s: Structural): Array<readonly unknown[]> {
  let rules = allOfCache.get(s);
  if (rules === undefined) {
    rules = [];
    for (const b of s.allOf) {
      if (b.celRules.length > 0) rules.push(b.celRules);
      rules.push(...allOfRules(b));
    }
    allOfCache.set(s, rules);
  }
  return rules;
}

const RULES = trait((s) => s.celRules.length > 0 || allOfRules(s).length > 0);

/** Whether the walk can meet a rule at `s` or below (items, properties, additionalProperties). */
function hasCel(s: Structural): boolean {
  return hasBelow(RULES, s);
}

/** A correlated old value that is present (null and absent old values correlate with nothing). */
function present(o: Old): Old {
  return o === undefined || o.value === null || o.value === undefined ? undefined : o;
}

const stopped = (cel: CelHook): boolean => cel.exhausted?.() === true;

/**
 * Each node's CEL rules handed to the hook, walking the value as the schema describes it
 * (pkg/apiserver/schema/cel/validation.go `Validator.validate`), with the old value each
 * correlates with: a property by key (`validateMap`), a map list's item by its keys
 * (`validateArray`, maplist.go).
 */
export function runCel(s: Structural, value: unknown, path: string, cel: CelHook, old: Old): FieldError[] {
  return walk(s, value, path, cel, old, undefined);
}

function walk(
  s: Structural,
  value: unknown,
  path: string,
  cel: CelHook,
  old: Old,
  parent: WalkNode | undefined,
): FieldError[] {
  if (value === null || value === undefined || !hasCel(s)) return [];
  const node = new WalkNode(s, value, old, parent);
  const out: FieldError[] = s.celRules.length > 0 ? cel(s.celRules, value, path, node) : [];
  // An allOf branch's rules apply to the node's value (validation.go `AllOfValidators`).
  for (const rules of allOfRules(s)) {
    if (stopped(cel)) return out;
    out.push(...cel(rules, value, path, node));
  }
  if (stopped(cel)) return out;
  if (Array.isArray(value)) {
    const items = s.items;
    if (items === undefined || !hasCel(items)) return out;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      out.push(...walk(items, v, `${path}[${i}]`, cel, present(oldItem(old, s, v)), node));
      if (stopped(cel)) break;
    }
  } else if (isJsonObject(value)) {
    const oldMap = old !== undefined && isJsonObject(old.value) ? old.value : undefined;
    const extra = additionalSchema(s);
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const named = s.properties?.get(k);
      const sub = named ?? extra;
      // A subtree without rules reports nothing: skipped before its path is even built.
      if (sub === undefined || !hasCel(sub)) continue;
      const v = value[k];
      const at = named ? (path === '' ? k : `${path}.${k}`) : `${path}[${k}]`;
      const o = oldMap !== undefined && k in oldMap ? { value: oldMap[k] } : undefined;
      out.push(...walk(sub, v, at, cel, present(o), node));
      if (stopped(cel)) break;
    }
  }
  return out;
}
