/**
 * The ServiceCIDR (networking.k8s.io/v1): validation (pkg/apis/networking/validation
 * `ValidateServiceCIDR`, `ValidateServiceCIDRUpdate`: one or two canonical CIDRs, one per
 * family, fixed once set but for adding the second family), the strategy's status reset
 * (ServiceCIDRStatusFieldWiping) and printers.go `printServiceCIDR`.
 */

import type { KubeObject } from '../../../protocol/events.js';
import { isObject, type JsonObject, rec } from '../access.js';
import { builtinKind } from '../builtin.js';
import { ageColumn } from '../columns.js';
import { goStruct } from '../field-value.js';
import type { FieldError } from '../types.js';
import { invalid, required, validateObjectMeta } from '../validation.js';
import { familyOf, validateCIDR } from './ip.js';

const IMMUTABLE = 'field is immutable';

function cidrsOf(obj: KubeObject): string[] {
  const cidrs = rec(obj.spec).cidrs;
  return Array.isArray(cidrs) ? cidrs.map((c) => (typeof c === 'string' ? c : '')) : [];
}

/** `validateServiceCIDRSpec`. */
function validateSpec(spec: JsonObject): FieldError[] {
  const cidrs = Array.isArray(spec.cidrs) ? spec.cidrs.map(String) : [];
  if (cidrs.length === 0) return [required('spec.cidrs', 'at least one CIDR required')];
  if (cidrs.length > 2) {
    // The internal ServiceCIDRSpec (no json tags) is the bad value.
    return [invalid('spec.cidrs', goStruct([['CIDRs', cidrs]]), 'may only hold up to 2 values')];
  }
  const errors = cidrs.flatMap((c, i) => validateCIDR(`spec.cidrs[${i}]`, c));
  if (cidrs.length === 2) {
    const family = familyOf(cidrs[0]);
    if (family !== undefined && family === familyOf(cidrs[1])) {
      errors.push(
        invalid(
          'spec.cidrs',
          cidrs,
          'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
        ),
      );
    }
  }
  return errors;
}

/**
 * `ValidateServiceCIDR` on create; `ValidateServiceCIDRUpdate` on update: the CIDRs stay, but
 * a single-family range may gain its other family. A /status write keeps the spec, so it passes.
 */
export function validateServiceCIDR(obj: KubeObject, old?: KubeObject): FieldError[] {
  if (!old) return [...validateObjectMeta(obj), ...validateSpec(rec(obj.spec))];
  const errors = validateObjectMeta(obj);
  const now = cidrsOf(obj);
  const was = cidrsOf(old);
  if (now.length === was.length) {
    was.forEach((c, i) => {
      if (c !== now[i]) errors.push(invalid(`spec.cidrs[${i}]`, now[i], IMMUTABLE));
    });
  } else if (was.length === 1 && now.length === 2) {
    if (now[0] !== was[0]) errors.push(invalid('spec.cidrs[0]', now[0], IMMUTABLE));
    errors.push(...validateSpec(rec(obj.spec)));
  } else {
    errors.push(invalid('spec.cidrs', Array.isArray(rec(obj.spec).cidrs) ? now : null, IMMUTABLE));
  }
  return errors;
}

/** The status as a decoded Go object has it: there, if empty. */
function defaultServiceCIDR(obj: KubeObject): void {
  if (!isObject(obj.status)) obj.status = {};
}

/**
 * The status strategy's `ResetObjectMetaForStatus`: through /status the metadata a user sets
 * (labels, annotations, finalizers, owner references) stays as stored.
 */
function resetMetaForStatus(obj: KubeObject, old: KubeObject): void {
  const meta = (obj.metadata ?? {}) as Record<string, unknown>;
  const was = (old.metadata ?? {}) as Record<string, unknown>;
  for (const f of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
    if (was[f] === undefined) delete meta[f];
    else meta[f] = was[f];
  }
}

/** The ServiceCIDR's entry in the served kinds. */
export const serviceCIDRKind = builtinKind('networking.k8s.io', 'v1', 'servicecidrs', {
  defaults: defaultServiceCIDR,
  prepareForStatusUpdate: resetMetaForStatus,
  validate: validateServiceCIDR,
  cells: {
    CIDRs: (o) => cidrsOf(o).join(','),
    Age: ageColumn.cell,
  },
});
