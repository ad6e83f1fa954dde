/**
 * The DeviceTaintRule (resource.k8s.io/v1, cluster-scoped, with /status): the taint's time added
 * (pkg/apis/resource/v1/defaults.go `SetDefaults_DeviceTaint`), validation
 * (pkg/apis/resource/validation `ValidateDeviceTaintRule`, `ValidateDeviceTaintRuleUpdate`: the
 * selector's driver, pool and device names, the taint), its strategy
 * (pkg/registry/resource/devicetaintrule/strategy.go: the status emptied on create and kept on a
 * main update, generation 1 then bumped by a spec change, a new time added when the effect
 * changes and the time does not, updates needing a resourceVersion; /status keeps the spec and
 * metadata and checks the conditions, at most 8) and the columns (printers.go `printDeviceTaint`).
 */

import type { KubeObject } from '../../../protocol/events.js';
import { arr, isObject, rec, sameJson, specOf, statusOf, str } from '../access.js';
import { translateTimestampSince } from '../age.js';
import { builtinKind } from '../builtin.js';
import { tooMany } from '../declarative.js';
import { validateConditions } from '../policy/conditions.js';
import type { FieldError, ResourceKind } from '../types.js';
import { validateObjectMeta } from '../validation.js';
import type { SplitErrors } from './claim-spec.js';
import { timeAddedNow, validateDeviceTaint } from './devicetaint.js';
import { driverNameHandwritten, resetMetaForStatus, validateDNSLabel, validatePoolName } from './names.js';

/** `resource.DeviceTaintRuleStatusMaxConditions`. */
const MAX_CONDITIONS = 8;

/** The rule as the v1 type writes it (`spec.taint`'s key and effect, `status`), its taint timed. */
export function defaultDeviceTaintRule(obj: KubeObject): void {
  const spec = rec(obj.spec);
  obj.spec = spec;
  const taint = rec(spec.taint);
  spec.taint = taint;
  if (!('key' in taint)) taint.key = '';
  if (!('effect' in taint)) taint.effect = '';
  if (taint.timeAdded === undefined || taint.timeAdded === null) taint.timeAdded = timeAddedNow();
  obj.status = rec(obj.status);
}

/** `ValidateDeviceTaintRule`, and on an update `ValidateDeviceTaintRuleUpdate`. */
export function validateDeviceTaintRule(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = specOf(obj);
  const out: SplitErrors = { hand: old ? [] : validateObjectMeta(obj), dv: [] };
  const selector = spec.deviceSelector;
  if (isObject(selector)) {
    const path = 'spec.deviceSelector';
    if (typeof selector.driver === 'string')
      out.hand.push(...driverNameHandwritten(selector.driver, `${path}.driver`));
    if (typeof selector.pool === 'string') out.hand.push(...validatePoolName(selector.pool, `${path}.pool`));
    if (typeof selector.device === 'string')
      out.hand.push(...validateDNSLabel(selector.device, `${path}.device`));
  }
  validateDeviceTaint(rec(spec.taint), old ? rec(specOf(old).taint) : undefined, 'spec.taint', out);
  return [...out.hand, ...out.dv];
}

/** The strategy's PrepareForUpdate: a new time for a new effect, the generation for a new spec. */
export function prepareDeviceTaintRuleUpdate(obj: KubeObject, old: KubeObject): void {
  const taint = rec(specOf(obj).taint);
  const oldTaint = rec(specOf(old).taint);
  if (
    str(taint.effect) !== str(oldTaint.effect) &&
    sameJson(taint.timeAdded ?? null, oldTaint.timeAdded ?? null)
  ) {
    taint.timeAdded = timeAddedNow();
  }
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  const copy = structuredClone(obj);
  defaultDeviceTaintRule(copy);
  const generation = old.metadata?.generation ?? 0;
  meta.generation = sameJson(specOf(copy), specOf(old)) ? generation : generation + 1;
}

/** `ValidateDeviceTaintRuleStatusUpdate`: metav1 conditions, at most 8 of them. */
export function validateDeviceTaintRuleStatus(obj: KubeObject): FieldError[] {
  const conditions = arr(statusOf(obj).conditions);
  const errors = validateConditions(conditions, 'status.conditions');
  if (conditions.length > MAX_CONDITIONS)
    errors.push(tooMany('status.conditions', conditions.length, MAX_CONDITIONS));
  return errors;
}

/** The DeviceTaintRule's entry in the served kinds. */
export const deviceTaintRuleKind: ResourceKind = builtinKind('resource.k8s.io', 'v1', 'devicetaintrules', {
  defaults: defaultDeviceTaintRule,
  prepareForCreate: (obj) => {
    obj.status = {};
    obj.metadata = { ...obj.metadata, generation: 1 };
  },
  prepareForUpdate: prepareDeviceTaintRuleUpdate,
  validate: validateDeviceTaintRule,
  prepareForStatusUpdate: resetMetaForStatus,
  validateStatusUpdate: validateDeviceTaintRuleStatus,
  allowUnconditionalUpdate: false,
  cells: {
    Key: (o) => str(rec(specOf(o).taint).key),
    Value: (o) => str(rec(specOf(o).taint).value),
    Effect: (o) => str(rec(specOf(o).taint).effect),
    TimeAdded: (o, now) => {
      const added = rec(specOf(o).taint).timeAdded;
      return added ? translateTimestampSince(added, now) : '';
    },
    Age: (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  },
});
