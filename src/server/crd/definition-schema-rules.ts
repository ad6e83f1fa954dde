/**
 * The rules a CRD's `openAPIV3Schema` must meet to be accepted, worded as
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * words them: `validateCustomResourceDefinitionValidation` (the root rules
 * with the status subresource, structural-ness) and
 * `ValidateCustomResourceDefinitionOpenAPISchema` with `specStandardValidatorV3.validate`
 * (forbidden keywords, list and map types, list-map keys, CEL rule shapes).
 *
 * Not here yet: compiling CEL rules and their cost (`cel.Compile`), and
 * `structuraldefaulting.ValidateDefaults` (defaults validated and pruned).
 */
import { arr, isObject, type JsonObject, rec, str } from '../kinds/access.js';
import type { FieldError } from '../kinds/types.js';
import { forbidden, invalid, key, notSupported, required } from './definition-errors.js';
import { GoRendered, goSchemaProps } from './definition-internal.js';
import { newStructuralError, validateStructural } from './definition-schema-structural.js';

/** `openapiV3Types`, sorted as `sets.String.List()`. */
const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/** `allowedFieldsAtRootSchema`, with the v1 JSON key each Go field comes from. */
const ROOT_ALLOWED = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** JSONSchemaProps' Go fields in declaration order, each with its v1 JSON key. */
const GO_FIELDS: Array<[string, string]> = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const isZero = (v: unknown): boolean => v === undefined || v === null || v === false || v === '';
const sortedKeys = (v: unknown): string[] => Object.keys(rec(v)).sort();

/** The per-call state of upstream's `specStandardValidatorV3`. */
interface SchemaContext {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

/** `specStandardValidatorV3.validate`: keywords a CRD schema may not use at all. */
function standard(s: JsonObject, ctx: SchemaContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  if (type !== '' && !OPENAPI_V3_TYPES.includes(type))
    errs.push(notSupported(`${path}.type`, type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && s.default !== null && !ctx.allowDefaults) {
    const reason = ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : '';
    errs.push(forbidden(`${path}.default`, `must not be set${reason}`));
  }
  if (str(s.id) !== '') errs.push(forbidden(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) {
    errs.push(forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  }
  if (sortedKeys(s.patternProperties).length > 0) {
    errs.push(forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  }
  if (sortedKeys(s.definitions).length > 0)
    errs.push(forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (isObject(s.dependencies)) errs.push(forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (typeof s.$ref === 'string') errs.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  if (type === 'null')
    errs.push(forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) {
    errs.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  }
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(
      forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'),
    );
  }
  return errs;
}

/** The list-type, map-type and list-map-key rules of `ValidateCustomResourceDefinitionOpenAPISchema`. */
function listAndMapTypes(s: JsonObject, path: string): FieldError[] {
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
function celRuleShapes(s: JsonObject, path: string): FieldError[] {
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

const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** `ValidateCustomResourceDefinitionOpenAPISchema` without CEL compilation; properties walked sorted. */
export function validateOpenAPISchema(
  sIn: unknown,
  path: string,
  ctx: SchemaContext,
  isRoot: boolean,
): FieldError[] {
  if (!isObject(sIn)) return [];
  const s = sIn;
  const errs = standard(s, ctx, path);
  const walk = (child: unknown, at: string, c: SchemaContext = ctx): void => {
    errs.push(...validateOpenAPISchema(child, at, c, false));
  };
  if (s.uniqueItems === true) {
    errs.push(
      forbidden(
        `${path}.uniqueItems`,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const additional = s.additionalProperties;
  if (additional !== undefined && additional !== null) {
    if (sortedKeys(s.properties).length > 0 && additional !== true) {
      errs.push(
        forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'),
      );
    }
    const sub = ctx.insideResourceMeta
      ? {
          ...ctx,
          allowDefaults: false,
          disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
        }
      : ctx;
    walk(additional, `${path}.additionalProperties`, sub);
  }
  for (const k of sortedKeys(s.properties)) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${k}` };
    }
    walk(rec(s.properties)[k], key(`${path}.properties`, k), sub);
  }
  walk(s.not, `${path}.not`);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const)
    arr(s[k]).forEach((x, i) => {
      walk(x, `${path}.${k}[${i}]`);
    });
  for (const k of sortedKeys(s.definitions)) walk(rec(s.definitions)[k], key(`${path}.definitions`, k));
  if (isObject(s.items)) walk(s.items, `${path}.items`);
  else
    arr(s.items).forEach((x, i) => {
      walk(x, `${path}.items[${i}]`);
    });
  for (const k of sortedKeys(s.dependencies)) walk(rec(s.dependencies)[k], key(`${path}.dependencies`, k));
  errs.push(...listAndMapTypes(s, path), ...celRuleShapes(s, path));
  return errs;
}

/** Whether any schema node (recursively) satisfies `pred` (upstream `SchemaHas`). */
export function schemaHas(s: unknown, pred: (s: JsonObject) => boolean): boolean {
  if (!isObject(s)) return false;
  if (pred(s)) return true;
  const children: unknown[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]),
    ...arr(s.allOf),
    ...arr(s.anyOf),
    ...arr(s.oneOf),
    s.not,
    ...Object.values(rec(s.properties)),
    s.additionalProperties,
    ...Object.values(rec(s.patternProperties)),
    s.additionalItems,
    ...Object.values(rec(s.definitions)),
    ...Object.values(rec(s.dependencies)),
  ];
  return children.some((c) => schemaHas(c, pred));
}

/**
 * `validateCustomResourceDefinitionValidation` for one `{openAPIV3Schema}`
 * wrapper at `path` (`spec.validation` or `spec.versions[i].schema`).
 * Structural-ness is always required: v1 has `preserveUnknownFields: false`.
 */
export function validateCustomResourceValidation(
  validation: JsonObject | undefined,
  statusEnabled: boolean,
  path: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!isObject(schema)) return [];
  const at = `${path}.openAPIV3Schema`;
  const errs: FieldError[] = [];
  if (statusEnabled) {
    // Only some fields at the root, so that status' schema survives being extracted as properties["status"].
    for (const [goName, jsonKey] of GO_FIELDS) {
      const v = schema[jsonKey];
      if (isZero(v)) continue;
      if (goName === 'Type') {
        if (v !== 'object') {
          errs.push(
            invalid(
              `${at}.type`,
              str(v),
              'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
            ),
          );
          break;
        }
        continue;
      }
      if (!ROOT_ALLOWED.includes(goName)) {
        errs.push(
          invalid(
            at,
            new GoRendered(goSchemaProps(schema)),
            `only [${ROOT_ALLOWED.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
        break;
      }
    }
  }
  if (schema.nullable === true) errs.push(forbidden(`${at}.nullable`, 'nullable cannot be true at the root'));
  const initError = newStructuralError(schema);
  if (initError === undefined) errs.push(...validateStructural(schema, at));
  errs.push(
    ...validateOpenAPISchema(
      schema,
      at,
      { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false },
      true,
    ),
  );
  // NewStructural's refusals overlap the OpenAPI rules, so they show only when nothing else did.
  if (errs.length === 0 && initError !== undefined) errs.push(invalid(at, '', initError));
  return errs;
}
