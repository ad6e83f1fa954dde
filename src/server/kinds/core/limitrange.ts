/**
 * The LimitRange (core/v1): a Container item's defaults (pkg/apis/core/v1/defaults.go
 * `SetDefaults_LimitRangeItem`), validation (pkg/apis/core/validation `ValidateLimitRange`,
 * also on update) and the plain strategy (pkg/registry/core/limitrange/strategy.go: no status,
 * no generation, a PUT may not create). printers.go has no LimitRange printer: the Table is the
 * default one (Name, Created At).
 */

import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../protocol/events.js';
import { parseQuantity } from '../../../protocol/quantity.js';
import { isObject, objects, specOf, str } from '../access.js';
import { builtinKind } from '../builtin.js';
import { goNamedString } from '../field-value.js';
import type { FieldError } from '../types.js';
import { duplicate, forbidden, invalid, required, validateObjectMeta } from '../validation.js';
import { isQualifiedName } from '../validation-names.js';
import {
  isOvercommitAllowed,
  validateContainerResourceName,
  validateResourceName,
} from './resource-names.js';

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];

/** A ResourceList as a map of names to their canonical quantity texts. */
function resourceList(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/**
 * `SetDefaults_LimitRangeItem`: a Container item's default limit is its max, its default request
 * its default limit, else its min.
 */
export function defaultLimitRange(obj: KubeObject): void {
  for (const item of objects(specOf(obj).limits)) {
    if (item.type !== 'Container') continue;
    const max = resourceList(item.max);
    const min = resourceList(item.min);
    const def = { ...resourceList(item.default) };
    for (const [k, v] of Object.entries(max)) if (!(k in def)) def[k] = v;
    const request = { ...resourceList(item.defaultRequest) };
    for (const [k, v] of Object.entries(def)) if (!(k in request)) request[k] = v;
    for (const [k, v] of Object.entries(min)) if (!(k in request)) request[k] = v;
    // Empty maps are omitempty: only a filled one is written.
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(request).length > 0) item.defaultRequest = request;
  }
}

/**
 * The spec is a struct Go always writes, and its `limits` have no omitempty: `null` when absent.
 * Set once the field manager has run, as Go's field manager sees no null field to own.
 */
function writeNullLimits(obj: KubeObject): void {
  if (!isObject(obj.spec)) obj.spec = {};
  const spec = obj.spec as Record<string, unknown>;
  if (spec.limits === undefined) spec.limits = null;
}

/** `validateLimitRangeTypeName`: a qualified name, one of the standard types unless it has a domain. */
function validateTypeName(type: string, field: string): FieldError[] {
  const value = goNamedString(type);
  const errors = isQualifiedName(type).map((msg) => invalid(field, value, msg));
  if (errors.length > 0) return errors;
  if (!type.includes('/') && !LIMIT_TYPES.includes(type)) {
    return [invalid(field, value, 'must be a standard limit type or fully qualified')];
  }
  return [];
}

/** `validateLimitRangeResourceName`: a Pod or Container item names container resources only. */
function validateItemResourceName(type: string, name: string, field: string): FieldError[] {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(name, field)
    : validateResourceName(name, field);
}

/** Go's `%f` of a float64 (six decimals). */
function goFixed(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  return n.toFixed(6);
}

/** The checks across an item's lists for one resource (`ValidateLimitRange`'s loop over keys). */
function validateBounds(
  path: string,
  k: string,
  lists: Record<'min' | 'max' | 'default' | 'defaultRequest' | 'ratio', Record<string, string>>,
): FieldError[] {
  const errors: FieldError[] = [];
  const [min, max, def, req, ratio] = [
    lists.min[k],
    lists.max[k],
    lists.default[k],
    lists.defaultRequest[k],
    lists.ratio[k],
  ];
  const q = (s: string) => parseQuantity(s) ?? 0;
  const at = (list: string) => `${path}.${list}[${k}]`;
  if (min !== undefined && max !== undefined && q(min) > q(max)) {
    errors.push(invalid(at('min'), min, `min value ${min} is greater than max value ${max}`));
  }
  if (req !== undefined && min !== undefined && q(min) > q(req)) {
    errors.push(
      invalid(at('defaultRequest'), req, `min value ${min} is greater than default request value ${req}`),
    );
  }
  if (req !== undefined && max !== undefined && q(req) > q(max)) {
    errors.push(
      invalid(at('defaultRequest'), req, `default request value ${req} is greater than max value ${max}`),
    );
  }
  if (req !== undefined && def !== undefined && q(req) > q(def)) {
    errors.push(
      invalid(
        at('defaultRequest'),
        req,
        `default request value ${req} is greater than default limit value ${def}`,
      ),
    );
  }
  // kube reports the min (not the default) as this error's value, and the max as the next one's.
  if (def !== undefined && min !== undefined && q(min) > q(def)) {
    errors.push(invalid(at('default'), min, `min value ${min} is greater than default value ${def}`));
  }
  if (def !== undefined && max !== undefined && q(def) > q(max)) {
    errors.push(invalid(at('default'), max, `default value ${def} is greater than max value ${max}`));
  }
  if (ratio !== undefined && q(ratio) < 1) {
    errors.push(invalid(at('maxLimitRequestRatio'), ratio, `ratio ${ratio} is less than 1`));
  }
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    const limit = q(max) / q(min);
    if (q(ratio) > limit) {
      errors.push(
        invalid(
          at('maxLimitRequestRatio'),
          ratio,
          `ratio ${ratio} is greater than max/min = ${goFixed(limit)}`,
        ),
      );
    }
  }
  if (!isOvercommitAllowed(k) && def !== undefined && req !== undefined && q(def) !== q(req)) {
    errors.push(
      invalid(
        at('defaultRequest'),
        req,
        `default value ${def} must equal to defaultRequest value ${req} in ${k}`,
      ),
    );
  }
  return errors;
}

/**
 * `ValidateLimitRange` (create and update alike): each item's type, unique; its resource names;
 * no defaults on a Pod item; a storage bound on a PersistentVolumeClaim item; and bounds that
 * agree (min ≤ default request ≤ default ≤ max, a ratio of at least 1 and at most max/min).
 */
export function validateLimitRange(obj: KubeObject): FieldError[] {
  const errors = validateObjectMeta(obj);
  const seen = new Set<string>();
  objects(specOf(obj).limits).forEach((item, i) => {
    const path = `spec.limits[${i}]`;
    const type = str(item.type);
    errors.push(...validateTypeName(type, `${path}.type`));
    if (seen.has(type)) errors.push(duplicate(`${path}.type`, goNamedString(type)));
    seen.add(type);
    const keys = new Set<string>();
    const read = (list: string): Record<string, string> => {
      const entries = resourceList(item[list]);
      for (const k of Object.keys(entries)) {
        errors.push(...validateItemResourceName(type, k, `${path}.${list}[${k}]`));
        keys.add(k);
      }
      return entries;
    };
    const max = read('max');
    const min = read('min');
    let def: Record<string, string> = {};
    let req: Record<string, string> = {};
    if (type === 'Pod') {
      if (Object.keys(resourceList(item.default)).length > 0) {
        errors.push(forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
      }
      if (Object.keys(resourceList(item.defaultRequest)).length > 0) {
        errors.push(forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
      }
    } else {
      def = read('default');
      req = read('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && min.storage === undefined && max.storage === undefined) {
      errors.push(
        required(
          `${path}.limits`,
          'either minimum or maximum storage value is required, but neither was provided',
        ),
      );
    }
    const ratio = read('maxLimitRequestRatio');
    for (const k of keys) {
      errors.push(...validateBounds(path, k, { min, max, default: def, defaultRequest: req, ratio }));
    }
  });
  return errors;
}

/** The LimitRange's entry in the served kinds. */
export const limitRangeKind = builtinKind('', 'v1', 'limitranges', {
  defaults: defaultLimitRange,
  allowCreateOnUpdate: true,
  // strategy.go `PrepareForCreate`: a LimitRange sent without a name (nor generateName) gets a UUID.
  prepareForCreate: (obj) => {
    if (!obj.metadata) obj.metadata = {};
    if (!obj.metadata.name) obj.metadata.name = randomUUID();
    writeNullLimits(obj);
  },
  afterFieldManager: writeNullLimits,
  validate: validateLimitRange,
  cells: {
    'Created At': (o) => o.metadata?.creationTimestamp ?? '',
  },
});
