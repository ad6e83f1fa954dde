/**
 * pkg/apis/core/validation `ValidateNodeSelector`: a PersistentVolume's
 * `nodeAffinity.required` (and the topology a StorageClass allows is checked in its own file).
 */

import { arr, isObject, rec, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { forbidden, invalid, required } from '../../validation.js';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation-names.js';

/** `ValidateNodeSelectorRequirement`: operator and values, a qualified key, label values. */
function validateRequirement(rq: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const values = arr(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errors.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errors.push(
          forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) {
        errors.push(
          required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"),
        );
      }
      break;
    default:
      errors.push(invalid(`${path}.operator`, str(rq.operator), 'not a valid selector operator'));
  }
  for (const msg of isQualifiedName(str(rq.key))) errors.push(invalid(`${path}.key`, str(rq.key), msg));
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(str(v))) errors.push(invalid(`${path}.values[${i}]`, str(v), msg));
  });
  return errors;
}

/** `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, In or NotIn one node name. */
function validateFieldRequirement(rq: Record<string, unknown>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const values = arr(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) {
      errors.push(
        required(
          `${path}.values`,
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    }
  } else errors.push(invalid(`${path}.operator`, str(rq.operator), 'not a valid selector operator'));
  if (rq.key !== 'metadata.name')
    errors.push(invalid(`${path}.key`, str(rq.key), 'not a valid field selector key'));
  else {
    values.forEach((v, i) => {
      for (const msg of isDNS1123Subdomain(str(v))) errors.push(invalid(`${path}.values[${i}]`, str(v), msg));
    });
  }
  return errors;
}

/** `ValidateNodeSelector`: at least one term, each term's expressions and fields. */
export function validateNodeSelector(selector: unknown, path: string): FieldError[] {
  const termsPath = `${path}.nodeSelectorTerms`;
  const terms = arr(rec(selector).nodeSelectorTerms);
  if (terms.length === 0) return [required(termsPath, 'must have at least one node selector term')];
  const errors: FieldError[] = [];
  terms.forEach((term, i) => {
    const t = rec(term);
    arr(t.matchExpressions).forEach((rq, j) => {
      if (isObject(rq)) errors.push(...validateRequirement(rq, `${termsPath}[${i}].matchExpressions[${j}]`));
    });
    arr(t.matchFields).forEach((rq, j) => {
      if (isObject(rq)) errors.push(...validateFieldRequirement(rq, `${termsPath}[${i}].matchFields[${j}]`));
    });
  });
  return errors;
}
