/**
 * A CRD's openAPIV3Schema as the CRD API judges it: structural-ness
 * (apiextensions-apiserver pkg/apiserver/schema/validation.go `ValidateStructural`)
 * and the OpenAPI rules of validation.go `ValidateCustomResourceDefinitionOpenAPISchema`,
 * each with kube-apiserver's path and message. One version, so the schema is
 * reported at `spec.validation.openAPIV3Schema`, as kube-apiserver does.
 */
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';
import { minimalWidgetCrd } from '../../../helpers/widget.js';

type Json = Record<string, unknown>;

/** The error texts of a one-version CRD whose schema is `schema` (with status subresource when `status`). */
function errorsOf(schema: Json, opts: { status?: boolean; selectableFields?: Json[] } = {}): string[] {
  const version: Json = {};
  if (opts.status) version.subresources = { status: {} };
  if (opts.selectableFields) version.selectableFields = opts.selectableFields;
  return validateCustomResourceDefinition(minimalWidgetCrd(schema, version)).map(
    (e) => `${e.field}: ${e.message}`,
  );
}

const P = 'spec.validation.openAPIV3Schema';
const obj = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });

describe('structural schema rules', () => {
  it.each<[string, Json, string[]]>([
    [
      'a field without a type',
      obj({ spec: { properties: { a: { type: 'string' } } } }),
      [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`],
    ],
    [
      'array items without a type',
      obj({ list: { type: 'array', items: {} } }),
      [`${P}.properties[list].items.type: Required value: must not be empty for specified array items`],
    ],
    [
      'an array without items',
      obj({ list: { type: 'array' } }),
      [`${P}.properties[list].items: Required value: must be specified`],
    ],
    [
      'a root that is not an object',
      { type: 'array', items: { type: 'string' } },
      [`${P}.type: Invalid value: "array": must be object at the root`],
    ],
    [
      'no type at the root',
      { properties: { a: { type: 'string' } } },
      [`${P}.type: Required value: must not be empty at the root`],
    ],
    [
      'metadata with more than name and generateName',
      obj({
        metadata: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object' } } },
      }),
      [
        `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    ],
    [
      'metadata narrowing name only',
      obj({ metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } }),
      [],
    ],
    [
      'kind that is not a string',
      obj({ kind: { type: 'integer' } }),
      [`${P}.properties[kind].type: Invalid value: "integer": must be string`],
    ],
    [
      'untyped fields under x-kubernetes-preserve-unknown-fields or int-or-string',
      obj({
        any: { 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
      }),
      [],
    ],
    [
      'the int-or-string anyOf pattern is allowed, other types in anyOf are not',
      obj({
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        other: { type: 'string', anyOf: [{ type: 'string', maxLength: 3 }] },
      }),
      [`${P}.properties[other].anyOf[0].type: Forbidden: must be empty to be structural`],
    ],
    [
      'a property named only inside allOf (upstream checks the root only)',
      obj(
        { a: { type: 'string' }, spec: { type: 'object', allOf: [{ properties: { c: { maxLength: 3 } } }] } },
        { allOf: [{ properties: { b: { maxLength: 3 } } }] },
      ),
      [`${P}.properties[b]: Required value: because it is defined in ${P}.allOf[0].properties[b]`],
    ],
    [
      'additionalProperties at the root',
      { type: 'object', additionalProperties: { type: 'string' } },
      [`${P}.additionalProperties: Forbidden: must not be used at the root`],
    ],
    [
      'embedded resource without type',
      obj({ tmpl: { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      [
        `${P}.properties[tmpl].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      ],
    ],
  ])('%s', (_name, schema, expected) => {
    expect(errorsOf(schema)).toEqual(expected);
  });
});

describe('OpenAPI rules of a CRD schema', () => {
  it.each<[string, Json, string[]]>([
    [
      'uniqueItems',
      obj({ list: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
      [
        `${P}.properties[list].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      ],
    ],
    [
      'additionalProperties with properties',
      obj({
        spec: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
      }),
      [
        `${P}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    ],
    [
      '$ref',
      obj({ spec: { type: 'object', $ref: '#/definitions/x' } }),
      [`${P}.properties[spec].$ref: Forbidden: $ref is not supported`],
    ],
    [
      'an unknown type',
      obj({ spec: { type: 'map' } }),
      [
        `${P}.properties[spec].type: Unsupported value: "map": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      ],
    ],
    [
      'a default in top-level metadata',
      obj({ metadata: { type: 'object', default: {} } }),
      [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
    ],
    [
      'nullable at the root',
      { type: 'object', nullable: true },
      [`${P}.nullable: Forbidden: nullable cannot be true at the root`],
    ],
    [
      'x-kubernetes-preserve-unknown-fields: false',
      obj({ spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }),
      [
        `${P}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      ],
    ],
    [
      'a map list without keys',
      obj({
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      }),
      [
        `${P}.properties[list].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      ],
    ],
    [
      'a map list key that is optional without default',
      obj({
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      }),
      [
        `${P}.properties[list].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      ],
    ],
    [
      'x-kubernetes-list-type on an object',
      obj({ spec: { type: 'object', 'x-kubernetes-list-type': 'set' } }),
      [
        `${P}.properties[spec].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
      ],
    ],
    [
      'a CEL rule with no rule',
      obj({ spec: { type: 'object', 'x-kubernetes-validations': [{ message: 'x' }] } }),
      [`${P}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`],
    ],
  ])('%s', (_name, schema, expected) => {
    expect(errorsOf(schema)).toEqual(expected);
  });

  it("an invalid pattern, with Go's regexp error", () => {
    const errs = errorsOf(obj({ name: { type: 'string', pattern: '([a-z' } }));
    expect(errs).toEqual([
      'spec.validation.openAPIV3Schema.properties[name].pattern: Invalid value: "([a-z": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ]: `[a-z`',
    ]);
  });

  it('with the status subresource, only some keywords at the root', () => {
    expect(errorsOf({ type: 'string' }, { status: true })).toEqual([
      `${P}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
      `${P}.type: Invalid value: "string": must be object at the root`,
    ]);
  });
});

describe('defaults (defaulting/validation.go ValidateDefaults, judged by the schema engine)', () => {
  const withSpec = (spec: Json): Json => obj({ spec });
  it.each<[string, Json, string[]]>([
    [
      'a default of the wrong type',
      withSpec({ type: 'object', properties: { replicas: { type: 'integer', default: 'x' } } }),
      [
        `${P}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
      ],
    ],
    [
      'a default with a field the schema prunes',
      withSpec({ type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } }),
      [`${P}.properties[spec].default: Invalid value: {"a":1,"b":2}: must not have unknown fields`],
    ],
    [
      'a default outside the enum',
      withSpec({ type: 'object', properties: { size: { type: 'string', enum: ['S', 'M'], default: 'L' } } }),
      [`${P}.properties[spec].properties[size].default: Unsupported value: "L": supported values: "S", "M"`],
    ],
    [
      'a valid default',
      withSpec({ type: 'object', properties: { size: { type: 'integer', maximum: 3, default: 2 } } }),
      [],
    ],
  ])('%s', (_name, schema, expected) => {
    expect(errorsOf(schema)).toEqual(expected);
  });

  it('defaults are not judged while the schema is not structural', () => {
    expect(errorsOf(withSpec({ properties: { replicas: { type: 'integer', default: 'x' } } }))).toEqual([
      `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ]);
  });
});

describe('selectable fields', () => {
  const schema = obj({
    spec: obj({
      color: { type: 'string' },
      size: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
    }),
  });
  it('accepts string and integer fields', () => {
    expect(
      errorsOf(schema, { selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }] }),
    ).toEqual([]);
  });
  it('reports unknown paths, non-scalar fields, metadata and duplicates', () => {
    expect(
      errorsOf(schema, {
        selectableFields: [
          { jsonPath: '.spec.shape' },
          { jsonPath: '.spec.tags' },
          { jsonPath: '.spec.color' },
          { jsonPath: '.spec.color' },
          { jsonPath: '' },
        ],
      }),
    ).toEqual([
      'spec.selectableFields[0].jsonPath: Invalid value: ".spec.shape": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[1].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[3].jsonPath: Duplicate value: ".spec.color"',
      'spec.selectableFields[4].jsonPath: Required value',
    ]);
  });
  it('allows at most 8', () => {
    const props: Json = {};
    for (let i = 0; i < 9; i++) props[`f${i}`] = { type: 'string' };
    const fields = Object.keys(props).map((k) => ({ jsonPath: `.spec.${k}` }));
    expect(errorsOf(obj({ spec: obj(props) }), { selectableFields: fields })).toEqual([
      'spec.selectableFields: Too many: 9: must have at most 8 items',
    ]);
  });
});
