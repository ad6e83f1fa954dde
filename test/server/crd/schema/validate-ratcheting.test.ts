/**
 * Custom-object validation: each keyword with kube-apiserver's field path and message
 * (kube-openapi pkg/validation/errors/schema.go wording, converted by apiextensions-apiserver
 * validation.go `kubeOpenAPIResultToFieldErrors`, printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { compileStructural } from '../../../../src/server/crd/schema/structural.js';
import { validateCustomObject } from '../../../../src/server/crd/schema/validate.js';

describe('CRD schema validation on update: ratcheting (CRDValidationRatcheting)', () => {
  const schema = compileStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: { type: 'integer', minimum: 1 },
          name: { type: 'string', maxLength: 3 },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } },
            },
          },
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          limits: { type: 'array', items: { type: 'integer', maximum: 5 } },
        },
      },
    },
  });
  const texts = (obj: unknown, oldObject?: unknown) =>
    validateCustomObject(schema, obj, { oldObject }).map((e) => `${e.field}: ${e.message}`);

  it('keeps a value that was already invalid, and refuses a new or changed invalid one', () => {
    const old = { spec: { size: 0, name: 'toolong' } };
    expect(texts({ spec: { size: 0, name: 'toolong' } }, old)).toEqual([]);
    expect(texts({ spec: { size: -1, name: 'toolong' } }, old)).toEqual([
      'spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 1',
    ]);
    expect(texts({ spec: { size: 0, name: 'toolong' } })).toHaveLength(2);
  });

  it('correlates map-list items by key, not other lists’ items', () => {
    const old = { spec: { ports: [{ name: 'a', port: 500 }], limits: [9, 1] } };
    const updated = {
      spec: {
        ports: [
          { name: 'b', port: 1 },
          { name: 'a', port: 500 },
        ],
        limits: [9, 2],
      },
    };
    expect(texts(updated, old)).toEqual([
      'spec.limits[0]: Invalid value: 9: spec.limits[0] in body should be less than or equal to 5',
    ]);
  });

  it('checks set and map duplicates only when the old object had none', () => {
    expect(texts({ spec: { tags: ['a', 'a', 'b'] } }, { spec: { tags: ['a', 'a'] } })).toEqual([]);
    expect(texts({ spec: { tags: ['a', 'a'] } }, { spec: { tags: ['a'] } })).toEqual([
      'spec.tags[1]: Duplicate value: "a"',
    ]);
  });
});
