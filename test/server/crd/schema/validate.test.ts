/**
 * Custom-object validation: each keyword with kube-apiserver's field path and message
 * (kube-openapi pkg/validation/errors/schema.go wording, converted by apiextensions-apiserver
 * validation.go `kubeOpenAPIResultToFieldErrors`, printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { type CrdSchemaProps, compileStructural } from '../../../../src/server/crd/schema/structural.js';
import { validateCustomObject } from '../../../../src/server/crd/schema/validate.js';
import { errorsOf } from './validate-fixture.js';

describe('CRD schema validation: one keyword at a time', () => {
  const table: Array<[string, CrdSchemaProps, unknown, string[]]> = [
    [
      'minimum',
      { type: 'integer', minimum: 1 },
      0,
      ['spec.f: Invalid value: 0: spec.f in body should be greater than or equal to 1'],
    ],
    ['minimum met', { type: 'integer', minimum: 1 }, 1, []],
    [
      'exclusiveMinimum',
      { type: 'integer', minimum: 1, exclusiveMinimum: true },
      1,
      ['spec.f: Invalid value: 1: spec.f in body should be greater than 1'],
    ],
    [
      'maximum',
      { type: 'integer', maximum: 10 },
      11,
      ['spec.f: Invalid value: 11: spec.f in body should be less than or equal to 10'],
    ],
    [
      'exclusiveMaximum',
      { type: 'number', maximum: 2.5, exclusiveMaximum: true },
      2.5,
      ['spec.f: Invalid value: 2.5: spec.f in body should be less than 2.5'],
    ],
    [
      'maximum of a float, printed as Go %v',
      { type: 'number', maximum: 1000000 },
      1000000.5,
      ['spec.f: Invalid value: 1.0000005e+06: spec.f in body should be less than or equal to 1e+06'],
    ],
    [
      'multipleOf',
      { type: 'integer', multipleOf: 5 },
      7,
      ['spec.f: Invalid value: 7: spec.f in body should be a multiple of 5'],
    ],
    [
      'type integer, got a string',
      { type: 'integer' },
      'x',
      ['spec.f: Invalid value: "string": spec.f in body must be of type integer: "string"'],
    ],
    [
      'type string, got an object',
      { type: 'string' },
      { a: 1 },
      ['spec.f: Invalid value: "object": spec.f in body must be of type string: "object"'],
    ],
    [
      'type boolean, got a number',
      { type: 'boolean' },
      1,
      ['spec.f: Invalid value: "integer": spec.f in body must be of type boolean: "integer"'],
    ],
    [
      'type integer, got a float',
      { type: 'integer' },
      1.5,
      [
        'spec.f: Invalid value: "number": spec.f in body must be of type integer: "number"',
        // Since 1.36 an integer is range-checked as int64 even without a format (#136582).
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.f',
      ],
    ],
    ['type number accepts an integer', { type: 'number' }, 3, []],
    [
      'null, not nullable',
      { type: 'string' },
      null,
      ['spec.f: Invalid value: "null": spec.f in body must be of type string: "null"'],
    ],
    ['null, nullable', { type: 'string', nullable: true }, null, []],
    [
      'maxLength (value never echoed)',
      { type: 'string', maxLength: 3 },
      'abcd',
      ['spec.f: Too long: may not be more than 3 bytes'],
    ],
    [
      'maxLength 1',
      { type: 'string', maxLength: 1 },
      'ab',
      ['spec.f: Too long: may not be more than 1 byte'],
    ],
    ['maxLength counts runes', { type: 'string', maxLength: 2 }, 'éé', []],
    [
      'minLength',
      { type: 'string', minLength: 3 },
      'ab',
      ['spec.f: Invalid value: "ab": spec.f in body should be at least 3 chars long'],
    ],
    [
      'pattern',
      { type: 'string', pattern: '^[a-z]+$' },
      'A1',
      [`spec.f: Invalid value: "A1": spec.f in body should match '^[a-z]+$'`],
    ],
    [
      'enum of strings',
      { type: 'string', enum: ['a', 'b'] },
      'c',
      ['spec.f: Unsupported value: "c": supported values: "a", "b"'],
    ],
    [
      'enum of numbers',
      { type: 'integer', enum: [1, 2] },
      3,
      ['spec.f: Unsupported value: 3: supported values: "1", "2"'],
    ],
    ['enum met', { type: 'string', enum: ['a', 'b'] }, 'b', []],
    [
      'minItems',
      { type: 'array', minItems: 1, items: { type: 'string' } },
      [],
      ['spec.f: Invalid value: 0: spec.f in body should have at least 1 items'],
    ],
    [
      'maxItems',
      { type: 'array', maxItems: 2, items: { type: 'string' } },
      ['a', 'b', 'c'],
      ['spec.f: Too many: 3: must have at most 2 items'],
    ],
    [
      'maxItems 1',
      { type: 'array', maxItems: 1 },
      ['a', 'b'],
      ['spec.f: Too many: 2: must have at most 1 item'],
    ],
    [
      'uniqueItems',
      { type: 'array', uniqueItems: true },
      ['a', 'a'],
      [`spec.f: Invalid value: "": spec.f in body shouldn't contain duplicates`],
    ],
    [
      'items, with the index in the path',
      { type: 'array', items: { type: 'integer', minimum: 0 } },
      [1, -1],
      ['spec.f[1]: Invalid value: -1: spec.f[1] in body should be greater than or equal to 0'],
    ],
    [
      'minProperties',
      { type: 'object', minProperties: 2 },
      { a: 1 },
      ['spec.f: Invalid value: 1: spec.f in body should have at least 2 properties'],
    ],
    [
      'maxProperties',
      { type: 'object', maxProperties: 1 },
      { a: 1, b: 2 },
      ['spec.f: Too many: 2: must have at most 1 item'],
    ],
    [
      'required',
      { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      {},
      ['spec.f.name: Required value'],
    ],
    [
      'additionalProperties schema',
      { type: 'object', additionalProperties: { type: 'integer' } },
      { a: 'x' },
      ['spec.f.a: Invalid value: "string": spec.f.a in body must be of type integer: "string"'],
    ],
    [
      'format date-time',
      { type: 'string', format: 'date-time' },
      'yesterday',
      ['spec.f: Invalid value: "yesterday": spec.f in body must be of type date-time: "yesterday"'],
    ],
    ['format date-time met', { type: 'string', format: 'date-time' }, '2024-01-02T03:04:05Z', []],
    [
      'format uuid',
      { type: 'string', format: 'uuid' },
      'nope',
      ['spec.f: Invalid value: "nope": spec.f in body must be of type uuid: "nope"'],
    ],
    [
      'format ipv4',
      { type: 'string', format: 'ipv4' },
      '300.1.1.1',
      ['spec.f: Invalid value: "300.1.1.1": spec.f in body must be of type ipv4: "300.1.1.1"'],
    ],
    ['format cidr met', { type: 'string', format: 'cidr' }, '10.0.0.0/8', []],
    [
      'format k8s-short-name',
      { type: 'string', format: 'k8s-short-name' },
      'Bad_Name',
      ['spec.f: Invalid value: "Bad_Name": spec.f in body must be of type k8s-short-name: "Bad_Name"'],
    ],
    ['unsupported format stripped, not checked', { type: 'string', format: 'color' }, 'anything', []],
    ['int-or-string accepts both', { 'x-kubernetes-int-or-string': true }, '50%', []],
    [
      'int-or-string refuses a bool',
      { 'x-kubernetes-int-or-string': true },
      true,
      ['spec.f: Invalid value: "boolean": spec.f in body must be of type integer,string: "boolean"'],
    ],
    [
      'anyOf none: the branch that matched most (the string one) is reported (result.go MatchCount)',
      {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+%$' }],
      },
      'x',
      [
        '<nil>: Invalid value: "": "spec.f" must validate at least one schema (anyOf)',
        `spec.f: Invalid value: "x": spec.f in body should match '^\\d+%$'`,
      ],
    ],
    [
      'anyOf one',
      {
        'x-kubernetes-int-or-string': true,
        anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+%$' }],
      },
      '5%',
      [],
    ],
    [
      'oneOf two valid',
      { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] },
      5,
      [
        '<nil>: Invalid value: "": "spec.f" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      ],
    ],
    [
      'allOf',
      { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 3 }] },
      5,
      [
        'spec.f: Invalid value: 5: spec.f in body should be less than or equal to 3',
        '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf)',
      ],
    ],
    [
      'not',
      { type: 'string', not: { enum: ['forbidden'] } },
      'forbidden',
      ['<nil>: Invalid value: "": "spec.f" must not validate the schema (not)'],
    ],
  ];
  it.each(table)('%s', (_name, field, value, expected) => {
    expect(errorsOf(field, value)).toEqual(expected);
  });

  it('reports the same message once (result.go AddErrors)', () => {
    const field: CrdSchemaProps = { type: 'integer', allOf: [{ minimum: 5 }, { minimum: 5 }] };
    expect(errorsOf(field, 1)).toEqual([
      'spec.f: Invalid value: 1: spec.f in body should be greater than or equal to 5',
      '<nil>: Invalid value: "": "spec.f" must validate all the schemas (allOf). None validated',
    ]);
  });

  it('names a required field at the root without a leading dot, and reports the type FieldValueRequired', () => {
    const schema = compileStructural({
      type: 'object',
      required: ['spec'],
      properties: { spec: { type: 'object' } },
    });
    expect(validateCustomObject(schema, { kind: 'X' })).toEqual([
      { type: 'FieldValueRequired', field: 'spec', message: 'Required value' },
    ]);
  });

  it('puts a status subresource error under the given field path', () => {
    const schema = compileStructural({ type: 'object', properties: { ready: { type: 'boolean' } } });
    expect(validateCustomObject(schema, { ready: 'yes' }, { fieldPath: 'status' })).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'status.ready',
        message: 'Invalid value: "string": ready in body must be of type boolean: "string"',
      },
    ]);
  });

  it('hands x-kubernetes-validations to the CEL hook with the value and path, and checks nothing itself', () => {
    const rule = { rule: 'self.min <= self.max', message: 'min must not exceed max' };
    const schema = compileStructural({
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-validations': [rule] } },
    });
    const obj = { spec: { min: 3, max: 1 } };
    expect(validateCustomObject(schema, obj)).toEqual([]);
    const seen: unknown[] = [];
    const errors = validateCustomObject(schema, obj, {
      cel: (rules, value, path) => {
        seen.push({ rules, value, path });
        return [
          {
            type: 'FieldValueInvalid',
            field: path,
            message: 'Invalid value: min must not exceed max',
          },
        ];
      },
    });
    expect(seen).toEqual([{ rules: [rule], value: obj.spec, path: 'spec' }]);
    expect(errors.map((e) => e.field)).toEqual(['spec']);
  });
});
