/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { lines, specSchema } from './fixture.js';

describe('list types', () => {
  it('set and map lists equal their old value in any order; atomic lists do not', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
          properties: {
            set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            map: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, v: { type: 'integer' } },
              },
            },
            atomic: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    const old = {
      spec: {
        set: ['a', 'b'],
        map: [
          { name: 'x', v: 1 },
          { name: 'y', v: 2 },
        ],
        atomic: ['a', 'b'],
      },
    };
    const reordered = {
      spec: {
        set: ['b', 'a'],
        map: [
          { name: 'y', v: 2 },
          { name: 'x', v: 1 },
        ],
        atomic: ['a', 'b'],
      },
    };
    expect(lines(crd.validate(reordered, { oldObject: old }))).toEqual([]);
    const changed = {
      spec: {
        ...reordered.spec,
        map: [
          { name: 'y', v: 3 },
          { name: 'x', v: 1 },
        ],
      },
    };
    expect(lines(crd.validate(changed, { oldObject: old }))).toEqual(['spec: Invalid value: immutable']);
    const atomic = { spec: { ...old.spec, atomic: ['b', 'a'] } };
    expect(lines(crd.validate(atomic, { oldObject: old }))).toEqual(['spec: Invalid value: immutable']);
    expect(lines(crd.validate({ spec: { ...old.spec } }, {}))).toEqual([]);
  });

  it('set and map lists still index, iterate and measure in order', () => {
    const schema = specSchema(
      [
        {
          rule: 'self.s[0] == "b" && self.s.size() == 2 && self.s.map(x, x + "!") == ["b!", "a!"] && "a" in self.s && self.s.indexOf("a") == 1 && !self.s.isSorted()',
        },
      ],
      {
        s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    );
    expect(lines(compileCrdSchemaWithCel(schema).validate({ spec: { s: ['b', 'a'] } }))).toEqual([]);
  });
});
