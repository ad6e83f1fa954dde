/**
 * The ResourceQuota (core/v1): validation (pkg/apis/core/validation `ValidateResourceQuota`,
 * `ValidateResourceQuotaUpdate`, `ValidateResourceQuotaStatusUpdate`: resource names, values,
 * scopes and the scope selector), the strategy (pkg/registry/core/resourcequota/strategy.go:
 * status only through /status, no generation) and its columns (printers.go `printResourceQuota`).
 * Quotas are enforced by the ResourceQuota admission plugin and counted by the quota controller,
 * neither of which is here.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, objects, rec, specOf, statusOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';
import {
  isStandardQuotaResourceName,
  validateQuantityValue,
  validateQuotaResourceName,
} from './resource-names.js';

/** helpers.go `IsStandardResourceQuotaScope` (CrossNamespacePodAffinity included). */
const SCOPES = [
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'VolumeAttributesClass',
  'CrossNamespacePodAffinity',
];

/** The pairs no quota may hold both of. */
const CONFLICTING = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set([
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);

/** helpers.go `IsResourceQuotaScopeValidForResource`. */
function scopeFits(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return POD_COUNT.has(resource);
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default:
      return true;
  }
}

/** A ResourceList's names, as Go's `sets.List` gives them: sorted. */
function sortedNames(list: unknown): string[] {
  return Object.keys(rec(list)).sort();
}

/** `[]ResourceQuotaScope` as a bad value: JSON, `null` when absent. */
function scopesValue(scopes: unknown): unknown {
  return Array.isArray(scopes) ? scopes : null;
}

/** The internal ScopeSelector as a bad value: untagged Go fields, marshalled by their Go names. */
function scopeSelectorValue(selector: unknown) {
  const expressions = objects(rec(selector).matchExpressions).map((e) =>
    goStruct([
      ['ScopeName', str(e.scopeName)],
      ['Operator', str(e.operator)],
      ['Values', Array.isArray(e.values) ? e.values : null],
    ]),
  );
  return goStruct([['MatchExpressions', Array.isArray(rec(selector).matchExpressions) ? expressions : null]]);
}

/** Each entry of a ResourceList under `path`: a quota resource name and a valid amount. */
function validateResourceList(list: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!isObject(list)) return errors;
  for (const [k, v] of Object.entries(list)) {
    errors.push(...validateQuotaResourceName(k, `${path}[${k}]`));
    errors.push(...validateQuantityValue(k, v, `${path}[${k}]`));
  }
  return errors;
}

/** `validateResourceQuotaScopes`: standard scopes, each fitting every hard resource, no conflicting pair. */
function validateScopes(spec: Record<string, unknown>): FieldError[] {
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.map((s) => String(s)) : [];
  if (scopes.length === 0) return [];
  const errors: FieldError[] = [];
  const hard = sortedNames(spec.hard);
  const value = scopesValue(spec.scopes);
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) errors.push(invalid('spec.scopes', value, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeFits(scope, k)) {
        errors.push(invalid('spec.scopes', value, 'unsupported scope applied to resource'));
      }
    }
  }
  for (const pair of CONFLICTING) {
    if (pair.every((s) => scopes.includes(s)))
      errors.push(invalid('spec.scopes', value, 'conflicting scopes'));
  }
  return errors;
}

/** `validateScopedResourceSelectorRequirement` of each match expression. */
function validateScopeSelector(spec: Record<string, unknown>): FieldError[] {
  if (!isObject(spec.scopeSelector)) return [];
  const path = 'spec.scopeSelector.matchExpressions';
  const errors: FieldError[] = [];
  const hard = sortedNames(spec.hard);
  const seen = new Set<string>();
  for (const req of objects(spec.scopeSelector.matchExpressions)) {
    const scope = str(req.scopeName);
    const operator = str(req.operator);
    const values = Array.isArray(req.values) ? req.values : [];
    if (!SCOPES.includes(scope)) errors.push(invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !scopeFits(scope, k)) {
        errors.push(
          invalid(path, scopeSelectorValue(spec.scopeSelector), 'unsupported scope applied to resource'),
        );
      }
    }
    if (
      ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(
        scope,
      ) &&
      operator !== 'Exists'
    ) {
      errors.push(
        invalid(
          `${path}.operator`,
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) {
        errors.push(
          required(
            `${path}.values`,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        );
      }
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0) {
        errors.push(
          invalid(
            `${path}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        );
      }
    } else {
      errors.push(invalid(`${path}.operator`, operator, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const pair of CONFLICTING) {
    if (pair.every((s) => seen.has(s))) {
      errors.push(invalid(path, scopesValue(spec.scopes), 'conflicting scopes'));
    }
  }
  return errors;
}

/**
 * `ValidateResourceQuota`: metadata, the spec's hard limits, scopes and scope selector, and the
 * status's hard and used amounts. An update's main write keeps the stored status and a /status
 * write the stored spec, so this one function judges every write as kube's three do.
 */
export function validateResourceQuota(obj: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const status = statusOf(obj);
  return uniqueErrors([
    ...validateObjectMeta(obj),
    ...validateResourceList(spec.hard, 'spec.hard'),
    ...validateScopes(spec),
    ...validateScopeSelector(spec),
    ...validateResourceList(status.hard, 'status.hard'),
    ...validateResourceList(status.used, 'status.used'),
  ]);
}

/**
 * Each error once: the reference answers a scope that fits none of several hard resources with
 * one `unsupported scope applied to resource`, where `validateResourceQuotaScopes` appends one per
 * resource (seen on kube-apiserver v1.37.2).
 */
function uniqueErrors(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.type}\u0000${e.field}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `ValidateResourceQuotaUpdate`: the scopes are immutable (compared as sets). */
export function validateResourceQuotaUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const set = (o: KubeObject) =>
    new Set((Array.isArray(specOf(o).scopes) ? specOf(o).scopes : []) as unknown[]);
  const now = set(obj);
  const before = set(old);
  const same = now.size === before.size && [...now].every((s) => before.has(s));
  return same ? [] : [invalid('spec.scopes', scopesValue(specOf(obj).scopes), 'field is immutable')];
}

/** printers.go `printResourceQuota`: `name: used/hard` of each status.hard resource, sorted; `limits.*` apart. */
function quotaCell(o: KubeObject, limits: boolean): string {
  const status = statusOf(o);
  const used = rec(status.used);
  const hard = rec(status.hard);
  return sortedNames(hard)
    .filter((k) => {
      const pieces = k.split('.');
      return (pieces.length > 1 && pieces[0] === 'limits') === limits;
    })
    .map((k) => `${k}: ${used[k] === undefined ? '0' : String(used[k])}/${String(hard[k])}`)
    .join(', ');
}

/** The ResourceQuota's entry in the served kinds. */
export const resourceQuotaKind = builtinKind('', 'v1', 'resourcequotas', {
  // Go writes the spec and status structs even when empty.
  defaults: (obj) => {
    if (!isObject(obj.spec)) obj.spec = {};
    if (!isObject(obj.status)) obj.status = {};
  },
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
  cells: {
    Request: (o) => quotaCell(o, false),
    Limit: (o) => quotaCell(o, true),
    Age: ageColumn.cell,
  },
});
