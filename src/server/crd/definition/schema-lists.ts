/**
 * The list, map and CEL-rule keywords of a CRD schema, checked as
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * `ValidateCustomResourceDefinitionOpenAPISchema` checks them at each node
 * (x-kubernetes-list-type / -map-type / -list-map-keys, `validateMapListKeysMapSet`,
 * and the shape of `x-kubernetes-validations` entries), and the rules' CEL compiled with its
 * cost estimated (`celRuleCompilation`, over the cel room).
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import { GoRendered, goJsonMarshal as goJson } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';
import {
  compileCrdSchemaWithCel,
  compiledRules,
  compileRule,
  costErrorMessage,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  unboundedCardinality,
  validFieldPath,
} from '../cel/index.js';
import {
  additionalSchema,
  type CrdSchemaProps,
  compileStructural,
  type Structural,
} from '../schema/structural.js';
import { forbidden, invalid, key, notSupported, required } from './errors.js';
import { goSchemaProps } from './internal.js';

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

/** The shape of `x-kubernetes-validations` entries (their CEL is compiled by `celRuleCompilation`). */
export function celRuleShapes(s: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let node: Structural | undefined;
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
      // validation.go (1.37) words it without the field's name, which the path already gives.
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
    // pathValid: the path must lead to a field of this node's schema (cel.ValidFieldPath).
    if (fieldPath.length > 0) {
      node ??= compileStructural(s as CrdSchemaProps);
      if (validFieldPath(fieldPath, node) === undefined)
        errs.push(invalid(`${at}.fieldPath`, fieldPath, 'must be a valid path'));
    }
  });
  return errs;
}

/** An `x-kubernetes-validations` entry as the internal ValidationRule struct prints (`%#v`-free JSON, no tags). */
function goRule(raw: unknown): GoRendered {
  const v = rec(raw);
  // json.Marshal escapes <, > and & (goJson), as the rule's text shows in the Invalid value.
  const jstr = (x: unknown): string => goJson(str(x));
  const jptr = (x: unknown): string => (x === undefined || x === null ? 'null' : goJson(x));
  return new GoRendered(
    `{"Rule":${jstr(v.rule)},"Message":${jstr(v.message)},"MessageExpression":${jstr(v.messageExpression)},"Reason":${jptr(v.reason)},"FieldPath":${jstr(v.fieldPath)},"OptionalOldSelf":${jptr(v.optionalOldSelf)}}`,
  );
}

/**
 * The CEL half of `ValidateCustomResourceDefinitionOpenAPISchema`'s x-kubernetes-validations
 * check, over a whole (already valid, structural) `openAPIV3Schema` at `at`: each rule compiled
 * (`cel.Compile`), its estimated cost times how often its node can occur refused above
 * `StaticEstimatedCostLimit`, `oldSelf` refused where no old value correlates (inside a list
 * that is not a map list), `optionalOldSelf` refused without `oldSelf`, and the schema's total
 * refused above `StaticEstimatedCRDCostLimit`. Only properties, items and additionalProperties
 * are walked, as upstream's CEL context is (allOf and friends get none). On an update that
 * leaves the version's schema as it was, the per-expression limit is not applied again
 * (`suppressPerExpressionCost`); the schema's total still is.
 */
export function celRuleCompilation(
  root: JsonObject,
  at: string,
  suppressPerExpressionCost = false,
): FieldError[] {
  const errs: FieldError[] = [];
  const costs: Array<{ path: string; cost: number }> = [];
  // The schema as it will be served, rules compiled: serving finds it compiled (cel/index.ts).
  const rootNode = compileCrdSchemaWithCel(root as CrdSchemaProps).structural;
  const walk = (
    s: JsonObject,
    node: Structural,
    path: string,
    cardinality: number | undefined,
    uncorrelatable: string | undefined,
  ): void => {
    const rules = arr(s['x-kubernetes-validations']);
    // The node's rules as compiled for serving (they are these rules), else compiled here.
    const served = node.celRules === rules ? compiledRules(node, node === rootNode) : undefined;
    rules.forEach((raw, i) => {
      const rulePath = `${path}.x-kubernetes-validations[${i}]`;
      const compiled = served?.[i] ?? compileRule(raw, node, node === rootNode);
      const times = cardinality ?? unboundedCardinality(node);
      const cost = (compiled.program?.maxCost ?? 0) * times;
      if (!suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT)
        errs.push(
          forbidden(
            `${rulePath}.rule`,
            costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT),
          ),
        );
      costs.push({ path: `${rulePath}.rule`, cost });
      if (compiled.error !== undefined) errs.push(invalid(`${rulePath}.rule`, goRule(raw), compiled.error));
      if (compiled.messageExpressionError !== undefined) {
        errs.push(invalid(`${rulePath}.messageExpression`, goRule(raw), compiled.messageExpressionError));
      } else if (compiled.messageExpression !== undefined) {
        const messageCost = compiled.messageExpression.maxCost * times;
        if (!suppressPerExpressionCost && messageCost > STATIC_ESTIMATED_COST_LIMIT)
          errs.push(
            forbidden(
              `${rulePath}.messageExpression`,
              costErrorMessage('estimated messageExpression cost', messageCost, STATIC_ESTIMATED_COST_LIMIT),
            ),
          );
        costs.push({ path: `${rulePath}.messageExpression`, cost: messageCost });
      }
      if (compiled.program?.usesOldSelf) {
        if (uncorrelatable !== undefined)
          errs.push(
            invalid(
              `${rulePath}.rule`,
              compiled.rule.rule,
              `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
            ),
          );
      } else if (compiled.program !== undefined && compiled.rule.optionalOldSelf !== undefined) {
        errs.push(
          invalid(
            `${rulePath}.optionalOldSelf`,
            compiled.rule.optionalOldSelf,
            'may not be set if oldSelf is not used in rule',
          ),
        );
      }
    });
    const times = (n: number): number | undefined =>
      cardinality === undefined ? undefined : cardinality * n;
    const props = rec(s.properties);
    for (const [k, sub] of Object.entries(props)) {
      const child = node.properties?.get(k);
      if (isObject(sub) && child) walk(sub, child, key(`${path}.properties`, k), cardinality, uncorrelatable);
    }
    if (isObject(s.items) && node.items) {
      const bounded = typeof s.maxItems === 'number' ? times(s.maxItems) : undefined;
      // Only a map list's items correlate with old ones (validation.go `withForbidOldSelfValidations`).
      const within = uncorrelatable ?? (s['x-kubernetes-list-type'] === 'map' ? undefined : path);
      walk(s.items, node.items, `${path}.items`, bounded, within);
    }
    const extra = additionalSchema(node);
    if (isObject(s.additionalProperties) && extra) {
      const bounded = typeof s.maxProperties === 'number' ? times(s.maxProperties) : undefined;
      walk(s.additionalProperties, extra, `${path}.additionalProperties`, bounded, uncorrelatable);
    }
  };
  walk(root, rootNode, at, 1, undefined);
  const total = costs.reduce((sum, c) => sum + c.cost, 0);
  if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    // cel_validation.go TotalCost.MostExpensive: the four costliest expressions of those
    // contributing at least 1% of the limit.
    const most = costs
      .filter((c) => c.cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100)
      .sort((a, b) => b.cost - a.cost)
      .slice(0, 4);
    for (const m of most)
      errs.push(
        forbidden(
          m.path,
          'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
        ),
      );
    errs.push(
      forbidden(
        at,
        costErrorMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return errs;
}
