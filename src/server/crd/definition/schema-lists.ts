/**
 * The list, map and CEL-rule keywords of a CRD schema, checked as
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * `ValidateCustomResourceDefinitionOpenAPISchema` checks them at each node
 * (x-kubernetes-list-type / -map-type / -list-map-keys, `validateMapListKeysMapSet`,
 * and the shape of `x-kubernetes-validations` entries; the CEL itself is not compiled).
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import type { FieldError } from '../../kinds/types.js';
import { forbidden, invalid, key, notSupported, required } from './errors.js';
import { GoRendered, goSchemaProps } from './internal.js';

/** The list-type, map-type and list-map-key rules of `ValidateCustomResourceDefinitionOpenAPISchema`. */
export function listAndMapTypes(s: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  const listType = typeof s['x-kubernetes-list-type'] === 'string' ? s['x-kubernetes-list-type'] : undefined;
  const mapType = typeof s['x-kubernetes-map-type'] === 'string' ? s['x-kubernetes-map-type'] : undefined;
  const mapKeys = arr(s['x-kubernetes-list-map-keys']).map(str);
  const items = isObject(s.items) ? s.items : undefined;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  if (mapType !== undefined && type !== 'object') {
    const msg = 'must be object if x-kubernetes-map-type is specified';
    errs.push(type === '' ? required(`${path}.type`, msg) : invalid(`${path}.type`, type, msg));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  }
  if (listType !== undefined && type !== 'array') {
    const msg = 'must be array if x-kubernetes-list-type is specified';
    errs.push(type === '' ? required(`${path}.type`, msg) : invalid(`${path}.type`, type, msg));
  } else if (listType === 'set' && items !== undefined) {
    // requireAtomicSetType
    const msg = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && typeof itemListType === 'string' && itemListType !== 'atomic') {
      errs.push(invalid(`${path}.items.x-kubernetes-list-type`, itemListType, msg));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Upstream reports the items' list type here, not their map type.
      errs.push(invalid(`${path}.items.x-kubernetes-map-type`, itemListType ?? null, msg));
    }
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) {
    errs.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (mapKeys.length > 0) {
    const msg = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errs.push(required(`${path}.x-kubernetes-list-type`, msg));
    else if (listType !== 'map') errs.push(invalid(`${path}.x-kubernetes-list-type`, listType, msg));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) {
      errs.push(
        required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'),
      );
    }
    if (s.items === undefined || s.items === null) {
      errs.push(required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    } else if (items === undefined) {
      const rendered = new GoRendered(
        `{"Schema":null,"JSONSchemas":[${arr(s.items).map(goSchemaProps).join(',')}]}`,
      );
      errs.push(
        invalid(`${path}.items`, rendered, 'must only have a single schema if x-kubernetes-list-type is map'),
      );
    }
    if (items !== undefined && items.type !== 'object') {
      errs.push(
        invalid(
          `${path}.items.type`,
          str(items.type),
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      const props = rec(items.properties);
      for (const k of mapKeys) {
        if (k in props) {
          const t = rec(props[k]).type;
          if (t === 'array' || t === 'object') {
            // Upstream reports the items' type ("object") as the value.
            errs.push(
              invalid(
                `${key(`${path}.items.properties`, k)}.type`,
                'object',
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
          }
        } else {
          errs.push(
            invalid(
              `${path}.x-kubernetes-list-map-keys`,
              mapKeys,
              'entries must all be names of item properties',
            ),
          );
        }
        if (seen.has(k))
          errs.push(
            invalid(`${path}.x-kubernetes-list-map-keys`, mapKeys, 'must not contain duplicate entries'),
          );
        seen.add(k);
      }
    }
  }
  // validateMapListKeysMapSet (requireMapListKeysMapSetValidation)
  if (items !== undefined && (listType === 'set' || listType === 'map')) {
    if (items.nullable === true)
      errs.push(
        forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`),
      );
    if (listType === 'map') {
      const requiredKeys = new Set(arr(items.required).map(str));
      const props = rec(items.properties);
      for (const k of mapKeys) {
        if (!(k in props)) continue;
        const p = rec(props[k]);
        const at = key(`${path}.items.properties`, k);
        if (!requiredKeys.has(k) && (p.default === undefined || p.default === null)) {
          errs.push(
            required(
              `${at}.default`,
              'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
            ),
          );
        }
        if (p.nullable === true)
          errs.push(
            forbidden(
              `${at}.nullable`,
              'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
            ),
          );
      }
    }
  }
  return errs;
}

/** The shape of `x-kubernetes-validations` entries (the CEL expressions themselves are not compiled here). */
export function celRuleShapes(s: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const newline = /[\n\r]+/;
  arr(s['x-kubernetes-validations']).forEach((raw, i) => {
    const r = rec(raw);
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const rule = str(r.rule).trim();
    const message = str(r.message);
    const trimmedMsg = message.trim();
    if (rule === '') errs.push(required(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0)
      errs.push(invalid(`${at}.message`, message, 'must be non-empty if specified'));
    else if (newline.test(trimmedMsg))
      errs.push(invalid(`${at}.message`, message, 'must not contain line breaks'));
    else if (newline.test(rule) && trimmedMsg.length === 0) {
      errs.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    }
    const msgExpr = str(r.messageExpression);
    if (msgExpr.length > 0 && msgExpr.trim().length === 0) {
      errs.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    }
    const reasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
    if (typeof r.reason === 'string' && !reasons.includes(r.reason))
      errs.push(notSupported(`${at}.reason`, r.reason, reasons));
    const fieldPath = str(r.fieldPath);
    if (fieldPath.length > 0 && fieldPath.trim().length === 0)
      errs.push(invalid(`${at}.fieldPath`, fieldPath, 'must be non-empty if specified'));
    if (newline.test(fieldPath))
      errs.push(invalid(`${at}.fieldPath`, fieldPath, 'must not contain line breaks'));
  });
  return errs;
}
