/**
 * The rules a CRD's `openAPIV3Schema` must meet to be accepted, worded as
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * words them: `validateCustomResourceDefinitionValidation` (the root rules
 * with the status subresource, structural-ness) and
 * `ValidateCustomResourceDefinitionOpenAPISchema` with `specStandardValidatorV3.validate`
 * (forbidden keywords, and the walk that applies schema-lists.ts's
 * list, map and CEL-rule checks at every node).
 *
 * Defaults are checked by schema-defaults.ts. Not here yet:
 * compiling CEL rules and their cost (`cel.Compile`).
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import { GoRendered } from '../../kinds/field-value.js';
import type { FieldError } from '../../kinds/types.js';
import type { CrdSchemaProps } from '../schema/structural.js';
import { forbidden, invalid, key, notSupported } from './errors.js';
import { goSchemaProps } from './internal.js';
import { validateSchemaDefaults } from './schema-defaults.js';
import { celRuleShapes, listAndMapTypes } from './schema-lists.js';
import { newStructuralError, validateStructural } from './schema-structural.js';

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
  if (initError === undefined) {
    const structuralErrs = validateStructural(schema, at);
    // Defaults are judged only against a structural schema.
    errs.push(
      ...(structuralErrs.length > 0 ? structuralErrs : validateSchemaDefaults(schema as CrdSchemaProps, at)),
    );
  }
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
